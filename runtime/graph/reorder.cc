#include "runtime/graph/reorder.h"

#include <algorithm>
#include <tuple>

#include "runtime/base/parallel.h"
#include "runtime/base/status.h"
#include "runtime/graph/graph_builder.h"
#include "runtime/graph/held_rows.h"

namespace chatty {

namespace {

// c in new ids: rows in new order, targets renamed and sorted. Only the
// new rows [lo, hi) are written (and, when `held`, backed): chunks keep
// their vertices, so a rank's rows are its own before and after.
Csr relabel(const Csr& c, const Reordered& r, vid_t lo, vid_t hi, bool held) {
  const vid_t n = c.num_vertices();
  Csr out;
  out.offsets.allocate(size_t(n) + 1);
  eid_t* off = out.offsets.mutable_data();
#pragma omp parallel for schedule(static)
  for (vid_t i = 0; i < n; ++i) off[i] = c.degree(r.old_of_new[i]);
  parallel_exclusive_scan(off, off, n);
  const bool weighted = !c.weights.empty();
  vid_t* tgt;
  weight_t* wgt = nullptr;
  if (held) {
    std::tie(tgt, out.targets) = reserve_held<vid_t>(c.num_edges(), off[lo], off[hi]);
    if (weighted) std::tie(wgt, out.weights) = reserve_held<weight_t>(c.num_edges(), off[lo], off[hi]);
  } else {
    out.targets.allocate(c.num_edges());
    tgt = out.targets.mutable_data();
    if (weighted) out.weights.allocate(c.num_edges()), wgt = out.weights.mutable_data();
  }
#pragma omp parallel for schedule(dynamic, 1024)
  for (vid_t i = lo; i < hi; ++i) {
    const vid_t u = r.old_of_new[i];
    eid_t k = off[i];
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e, ++k) {
      tgt[k] = r.new_of_old[c.targets[e]];
      if (weighted) wgt[k] = c.weights[e];
    }
  }
  sort_neighbor_lists(out, tgt, wgt, lo, hi);
  return out;
}

// The chunks' bounds, checked; [0, |V|) where none are given.
std::vector<vid_t> chunk_bounds(const std::vector<vid_t>& chunks, vid_t n) {
  CHATTY_CHECK(chunks.empty() || (chunks.size() >= 2 && chunks.front() == 0 && chunks.back() == n &&
                                  std::is_sorted(chunks.begin(), chunks.end())),
               "reorder: chunk bounds must rise from 0 to |V|");
  return chunks.empty() ? std::vector<vid_t>{0, n} : chunks;
}

// r's graph: g relabelled by r's maps (a rank's rows stay its own).
void relabel_graph(const Graph& g, const std::vector<vid_t>& b, Reordered& r) {
  const vid_t lo = g.rows_lo(), hi = g.rows_hi();
  CHATTY_CHECK(
      g.holds_all_rows() || (std::binary_search(b.begin(), b.end(), lo) && std::binary_search(b.begin(), b.end(), hi)),
      "reorder: a rank's rows must be whole chunks (internal error)");
  r.graph = Graph(relabel(g.out(), r, lo, hi, !g.holds_all_rows()), g.directed());
  if (!g.holds_all_rows()) {
    r.graph.hold_rows(lo, hi);
    if (g.directed() && g.has_in()) r.graph.set_in(relabel(g.in(), r, lo, hi, true));
  }
}

}  // namespace

Reordered reorder_by_degree(const Graph& g, const std::vector<vid_t>& chunks) {
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  const std::vector<vid_t> b = chunk_bounds(chunks, n);
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
  relabel_graph(g, b, r);
  return r;
}

Reordered reorder_by_bfs(const Graph& g, const std::vector<vid_t>& chunks) {
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  const std::vector<vid_t> b = chunk_bounds(chunks, n);
  CHATTY_CHECK(g.holds_all_rows(), "--reorder=bfs needs every row of the graph: under ranks, use --reorder=degree");
  std::vector<vid_t> order;  // the visits
  order.reserve(n);
  std::vector<uint8_t> seen(n, 0);
  auto walk_from = [&](vid_t s) {
    size_t head = order.size();
    seen[s] = 1, order.push_back(s);
    for (; head < order.size(); ++head) {
      const vid_t u = order[head];
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
        if (const vid_t v = c.targets[e]; !seen[v]) seen[v] = 1, order.push_back(v);
    }
  };
  if (n > 0) {
    vid_t hub = 0;
    for (vid_t v = 1; v < n; ++v)
      if (c.degree(v) > c.degree(hub)) hub = v;
    walk_from(hub);
  }
  for (vid_t v = 0; v < n; ++v)
    if (!seen[v]) walk_from(v);
  // Each chunk's vertices in visit order, from the chunk's first id.
  std::vector<vid_t> next(b.begin(), b.end() - 1);
  Reordered r;
  r.old_of_new.resize(n);
  r.new_of_old.resize(n);
  for (vid_t v : order) {
    const size_t d = size_t(std::upper_bound(b.begin(), b.end(), v) - b.begin()) - 1;
    const vid_t i = next[d]++;
    r.old_of_new[i] = v;
    r.new_of_old[v] = i;
  }
  relabel_graph(g, b, r);
  return r;
}

}  // namespace chatty
