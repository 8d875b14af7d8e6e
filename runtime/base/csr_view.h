// The views through which kernels and host ops read a device's edges: rows
// of a CSR in place or copied, and every vertex's out-degree. Plain
// pointers into arrays someone else owns (runtime/graph/graph_chunk.h
// makes them), so the kernels need nothing of the graph model.
#pragma once

#include "runtime/base/types.h"

namespace chatty {

// Edges of the vertices [lo, hi): v's are targets[begin(v)], ...,
// targets[end(v) - 1]. A view indexes the whole graph's arrays as they are
// (begin(lo) is where the chunk starts in them); a copy holds only the
// chunk's edges (begin(lo) = 0). Either way no kernel subtracts a base.
struct CsrChunk {
  vid_t lo = 0, hi = 0;
  const eid_t* offsets = nullptr;           // hi - lo + 1 entries
  const vid_t* targets = nullptr;           // indexed by offsets; global ids, sorted per vertex
  const weight_t* weights = nullptr;        // indexed by offsets, or null when unweighted
  const uint8_t* narrow_weights = nullptr;  // the same a byte each, where every one fits (Graph::narrow_weights)

  eid_t begin(vid_t v) const { return offsets[v - lo]; }
  eid_t end(vid_t v) const { return offsets[v - lo + 1]; }
  eid_t degree(vid_t v) const { return offsets[v - lo + 1] - offsets[v - lo]; }
  eid_t num_edges() const { return offsets ? offsets[hi - lo] - offsets[0] : 0; }
  bool weighted() const { return weights != nullptr; }
};

// f(w) with the chunk's weights a byte each where it carries them and the
// caller reads weights (kReads), else with its 4-byte ones (or null): the
// one place a relaxation picks the width of what it reads per edge.
template <bool kReads, typename F>
void with_weights(const CsrChunk& c, F&& f) {
  if constexpr (kReads)
    if (c.narrow_weights) return f(c.narrow_weights);
  f(c.weights);
}

// Every vertex's out-degree, read from the offsets of the whole graph's
// out-edges: metadata each device holds, like its replica of the values.
struct Degrees {
  const eid_t* offsets = nullptr;  // |V| + 1 entries
  eid_t operator[](vid_t v) const { return offsets[v + 1] - offsets[v]; }
  // The degree sum of ids[0, n) (a frontier's scout count), each vertex's
  // offsets fetched ahead: ids in no order miss on every one, and summed
  // inside a push step each miss sat right behind the claim's CAS, which
  // waits for it (half of the big push step of a BFS on urand:20).
  uint64_t sum(const vid_t* ids, size_t n) const {
    constexpr size_t kAhead = 16;
    uint64_t s = 0;
    for (size_t i = 0; i < n; ++i) {
      if (i + kAhead < n) __builtin_prefetch(offsets + ids[i + kAhead]);
      s += (*this)[ids[i]];
    }
    return s;
  }
};

struct GraphChunk {
  CsrChunk out, in;  // in: empty unless the run needs in-edges
  Degrees out_degree;
  vid_t n = 0;  // |V|
  bool directed = true;
};

}  // namespace chatty
