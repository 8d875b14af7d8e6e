// Cutting a graph into what each device holds (the views are in
// runtime/base/csr_view.h): the out-edges (and, for pull and
// gather apps, the in-edges) of its own vertices [lo, hi), targets as
// global ids, and the out-degree of every vertex (what a gather publishes
// by, and what the direction switch counts). Kernels and host ops read
// the graph only through a chunk, so a device never touches another
// device's edges except through the chunk of a block it migrated, and a
// process of the cluster layer can hold just its own.
#pragma once

#include <memory>
#include <vector>

#include "runtime/base/csr_view.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/partition.h"

namespace chatty {

// The rows [lo, hi) of `c`, in place.
CsrChunk chunk_view(const Csr& c, vid_t lo, vid_t hi);

// The chunks of a run, one per device. With `copy`, each chunk's arrays are
// a copy of its rows, so a device that reads outside its own fails under
// AddressSanitizer instead of reading the graph; without, chunks are views
// of `g` (no memory). Either way `g` must outlive the chunks (degrees are
// read from its offsets). `in_edges`: the run reads in-edges (g.in() must exist).
// `byte_weights`: the run reads weights, so the chunks carry
// g.narrow_weights() too (made then if prepare_graph did not); a run that
// reads none neither makes nor holds them.
class ChunkedGraph {
 public:
  ChunkedGraph(const Graph& g, const Partition& part, bool in_edges, bool copy, bool byte_weights = false);
  const GraphChunk& operator[](int d) const { return chunks_[size_t(d)]; }
  // Bytes of edge structure device d holds: its offsets, targets and weights.
  uint64_t bytes(int d) const;

 private:
  struct Copy {
    std::vector<eid_t> offsets;
    std::vector<vid_t> targets;
    std::vector<weight_t> weights;
    std::vector<uint8_t> narrow_weights;
  };
  CsrChunk copy_of(const CsrChunk& c);

  std::vector<GraphChunk> chunks_;
  std::vector<std::unique_ptr<Copy>> copies_;
};

}  // namespace chatty
