#include "runtime/graph/graph_chunk.h"

#include <algorithm>

namespace chatty {

CsrChunk chunk_view(const Csr& c, vid_t lo, vid_t hi) {
  CsrChunk k;
  k.lo = lo;
  k.hi = hi;
  if (c.offsets.empty()) return k;
  k.offsets = c.offsets.data() + lo;
  k.targets = c.targets.data();
  k.weights = c.weights.empty() ? nullptr : c.weights.data();
  return k;
}

CsrChunk ChunkedGraph::copy_of(const CsrChunk& c) {
  if (!c.offsets) return c;
  auto& m = *copies_.emplace_back(std::make_unique<Copy>());
  const eid_t first = c.offsets[0], last = first + c.num_edges();
  m.offsets.resize(size_t(c.hi - c.lo) + 1);
  for (size_t i = 0; i < m.offsets.size(); ++i) m.offsets[i] = c.offsets[i] - first;
  m.targets.assign(c.targets + first, c.targets + last);
  if (c.weights) m.weights.assign(c.weights + first, c.weights + last);
  if (c.narrow_weights) m.narrow_weights.assign(c.narrow_weights + first, c.narrow_weights + last);
  CsrChunk k = c;
  k.offsets = m.offsets.data();
  k.targets = m.targets.data();
  k.weights = c.weights ? m.weights.data() : nullptr;
  k.narrow_weights = c.narrow_weights ? m.narrow_weights.data() : nullptr;
  return k;
}

ChunkedGraph::ChunkedGraph(const Graph& g, const Partition& part, bool in_edges, bool copy, bool byte_weights) {
  const vid_t n = g.num_vertices();
  const Csr& out = g.out();
  for (int d = 0; d < part.devices(); ++d) {
    GraphChunk c;
    c.n = n;
    c.directed = g.directed();
    c.out_degree = Degrees{out.offsets.data()};
    c.out = chunk_view(out, part.begin(d), part.end(d));
    if (byte_weights) c.out.narrow_weights = g.narrow_weights();
    if (copy) c.out = copy_of(c.out);
    if (in_edges) {
      // An undirected graph's in-edges are its out-edges: held once.
      c.in = g.directed() ? chunk_view(g.in(), part.begin(d), part.end(d)) : c.out;
      if (copy && g.directed()) c.in = copy_of(c.in);
    }
    chunks_.push_back(c);
  }
}

uint64_t ChunkedGraph::bytes(int d) const {
  uint64_t b = 0;
  for (const CsrChunk* c : {&chunks_[size_t(d)].out, &chunks_[size_t(d)].in}) {
    if (!c->offsets) continue;
    if (c == &chunks_[size_t(d)].in && c->targets == chunks_[size_t(d)].out.targets) continue;  // undirected
    b += uint64_t(c->hi - c->lo + 1) * sizeof(eid_t) + c->num_edges() * sizeof(vid_t);
    if (c->weights) b += c->num_edges() * sizeof(weight_t);
    if (c->narrow_weights) b += c->num_edges();
  }
  return b;
}

}  // namespace chatty
