#include "runtime/reorder.h"

#include <algorithm>

#include "runtime/graph_builder.h"
#include "runtime/parallel.h"
#include "runtime/status.h"

namespace chatty {

Reordered reorder_by_degree(const Graph& g, const std::vector<vid_t>& chunks) {
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  CHATTY_CHECK(chunks.empty() || (chunks.size() >= 2 && chunks.front() == 0 && chunks.back() == n &&
                                  std::is_sorted(chunks.begin(), chunks.end())),
               "reorder: chunk bounds must rise from 0 to |V|");
  const std::vector<vid_t> whole = {0, n};
  const std::vector<vid_t>& b = chunks.empty() ? whole : chunks;
  Reordered r;
  r.old_of_new.resize(n);
  r.new_of_old.resize(n);
  // Counting sort by degree, descending, within each chunk (degrees above
  // the cap share a bucket and keep id order; hubs are first either way).
  constexpr eid_t kCap = 1 << 16;
  std::vector<uint64_t> bucket(kCap + 2);
  for (size_t d = 0; d + 1 < b.size(); ++d) {
    const vid_t lo = b[d], hi = b[d + 1];
    std::fill(bucket.begin(), bucket.end(), 0);
    for (vid_t v = lo; v < hi; ++v) ++bucket[kCap - std::min(c.degree(v), kCap)];
    uint64_t run = lo;
    for (uint64_t& x : bucket) {
      const uint64_t k = x;
      x = run;
      run += k;
    }
    for (vid_t v = lo; v < hi; ++v) {
      const vid_t i = vid_t(bucket[kCap - std::min(c.degree(v), kCap)]++);
      r.old_of_new[i] = v;
      r.new_of_old[v] = i;
    }
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
