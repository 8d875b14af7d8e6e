#include "runtime/reorder.h"

#include <algorithm>

#include "runtime/graph_builder.h"
#include "runtime/parallel.h"

namespace chatty {

Reordered reorder_by_degree(const Graph& g) {
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  Reordered r;
  // Counting sort by degree, descending (degrees above the cap share a
  // bucket and keep id order; hubs are first either way).
  constexpr eid_t kCap = 1 << 16;
  std::vector<uint64_t> bucket(kCap + 2, 0);
  for (vid_t v = 0; v < n; ++v) ++bucket[kCap - std::min(c.degree(v), kCap)];
  uint64_t run = 0;
  for (uint64_t& b : bucket) {
    const uint64_t x = b;
    b = run;
    run += x;
  }
  r.old_of_new.resize(n);
  r.new_of_old.resize(n);
  for (vid_t v = 0; v < n; ++v) {
    const vid_t i = vid_t(bucket[kCap - std::min(c.degree(v), kCap)]++);
    r.old_of_new[i] = v;
    r.new_of_old[v] = i;
  }
  Csr out;
  out.offsets.allocate(size_t(n) + 1);
  eid_t* off = out.offsets.mutable_data();
#pragma omp parallel for schedule(static)
  for (vid_t i = 0; i < n; ++i) off[i] = c.degree(r.old_of_new[i]);
  parallel_exclusive_scan(off, off, n);
  out.targets.allocate(c.num_edges());
  const bool weighted = !c.weights.empty();
  if (weighted) out.weights.allocate(c.num_edges());
#pragma omp parallel for schedule(dynamic, 1024)
  for (vid_t i = 0; i < n; ++i) {
    const vid_t u = r.old_of_new[i];
    eid_t k = off[i];
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e, ++k) {
      out.targets[k] = r.new_of_old[c.targets[e]];
      if (weighted) out.weights[k] = c.weights[e];
    }
  }
  sort_neighbor_lists(out);
  r.graph = Graph(std::move(out), g.directed());
  return r;
}

}  // namespace chatty
