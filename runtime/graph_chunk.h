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

// Edges of the vertices [lo, hi): v's are targets[begin(v)], ...,
// targets[end(v) - 1]. A view indexes the whole graph's arrays as they are
// (begin(lo) is where the chunk starts in them); a copy holds only the
// chunk's edges (begin(lo) = 0). Either way no kernel subtracts a base.
struct CsrChunk {
  vid_t lo = 0, hi = 0;
  const eid_t* offsets = nullptr;     // hi - lo + 1 entries
  const vid_t* targets = nullptr;     // indexed by offsets; global ids, sorted per vertex
  const weight_t* weights = nullptr;  // indexed by offsets, or null when unweighted

  eid_t begin(vid_t v) const { return offsets[v - lo]; }
  eid_t end(vid_t v) const { return offsets[v - lo + 1]; }
  eid_t degree(vid_t v) const { return offsets[v - lo + 1] - offsets[v - lo]; }
  eid_t num_edges() const { return offsets ? offsets[hi - lo] - offsets[0] : 0; }
  bool weighted() const { return weights != nullptr; }
};

// The rows [lo, hi) of `c`, in place.
CsrChunk chunk_view(const Csr& c, vid_t lo, vid_t hi);

// Every vertex's out-degree, read from the offsets of the whole graph's
// out-edges: metadata each device holds, like its replica of the values.
struct Degrees {
  const eid_t* offsets = nullptr;  // |V| + 1 entries
  eid_t operator[](vid_t v) const { return offsets[v + 1] - offsets[v]; }
};

struct GraphChunk {
  CsrChunk out, in;  // in: empty unless the run needs in-edges
  Degrees out_degree;
  vid_t n = 0;  // |V|
  bool directed = true;
};

// The chunks of a run, one per device. With `copy`, each chunk's arrays are
// a copy of its rows, so a device that reads outside its own fails under
// AddressSanitizer instead of reading the graph; without, chunks are views
// of `g` (no memory). Either way `g` must outlive the chunks (degrees are
// read from its offsets). `in_edges`: the run reads in-edges (g.in() must exist).
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
  std::vector<std::unique_ptr<Copy>> copies_;
};

}  // namespace chatty
