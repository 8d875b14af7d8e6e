// What one device holds of a graph: the out-edges (and, for pull and
// gather apps, the in-edges) of its own vertices [lo, hi), targets as
// global ids, and the out-degree of every vertex (what a gather publishes
// by, and what the direction switch counts). Kernels and host ops read
// the graph only through a chunk, so a device never touches another
// device's edges except through the chunk of a block it migrated, and a
// process of the cluster layer can hold just its own.
#pragma once

#include <memory>
#include <vector>

#include "runtime/graph.h"
#include "runtime/partition.h"

namespace chatty {

// Edges of the vertices [lo, hi). Edge indices are local: begin(lo) = 0.
struct CsrChunk {
  vid_t lo = 0, hi = 0;
  const eid_t* offsets = nullptr;     // hi - lo + 1 entries, from `base`
  eid_t base = 0;                     // offsets[0]: where the chunk starts in its source's edges
  const vid_t* targets = nullptr;     // num_edges() entries, global ids, sorted per vertex
  const weight_t* weights = nullptr;  // num_edges() entries, or null when unweighted

  bool has(vid_t v) const { return v >= lo && v < hi; }
  eid_t begin(vid_t v) const { return offsets[v - lo] - base; }
  eid_t end(vid_t v) const { return offsets[v - lo + 1] - base; }
  eid_t degree(vid_t v) const { return offsets[v - lo + 1] - offsets[v - lo]; }
  eid_t num_edges() const { return offsets ? offsets[hi - lo] - base : 0; }
  bool weighted() const { return weights != nullptr; }
};

// The rows [lo, hi) of `c`, in place.
CsrChunk chunk_view(const Csr& c, vid_t lo, vid_t hi);
// All of `c`, in place.
inline CsrChunk whole(const Csr& c) { return chunk_view(c, 0, c.num_vertices()); }

struct GraphChunk {
  CsrChunk out, in;                   // in: empty unless the run needs in-edges
  const eid_t* out_degree = nullptr;  // every vertex's, |V| entries
  vid_t n = 0;                        // |V|
  bool directed = true;
};

// The chunks of a run, one per device. With `copy`, each chunk's arrays are
// a copy of its rows, so a device that reads outside its own fails under
// AddressSanitizer instead of reading the graph; without, chunks are views
// of `g` (no memory). Either way `g` must outlive the chunks (the degrees
// are shared). `in_edges`: the run reads in-edges (g.in() must exist).
class ChunkedGraph {
 public:
  ChunkedGraph(const Graph& g, const Partition& part, bool in_edges, bool copy);
  const GraphChunk& operator[](int d) const { return chunks_[size_t(d)]; }
  // Bytes of edge structure device d holds: its offsets, targets and weights.
  uint64_t bytes(int d) const;

 private:
  struct Copy {
    std::vector<eid_t> offsets;
    std::vector<vid_t> targets;
    std::vector<weight_t> weights;
  };
  CsrChunk copy_of(const CsrChunk& c);

  std::vector<GraphChunk> chunks_;
  std::vector<eid_t> degree_;
  std::vector<std::unique_ptr<Copy>> copies_;
};

}  // namespace chatty
