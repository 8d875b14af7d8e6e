#include "runtime/graph/graph_builder.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <numeric>
#include <tuple>

#include "runtime/base/hash.h"
#include "runtime/base/memory.h"
#include "runtime/base/parallel.h"
#include "runtime/base/status.h"
#include "runtime/graph/held_rows.h"

namespace chatty {
namespace {

// Calls f(u, v, w) for each edge to be stored (both directions when
// symmetrizing, self loops filtered) whose row u lies in [lo, hi).
template <typename F>
void for_each_edge_of_rows(const std::vector<EdgeList>& lists, bool weighted, const BuildOptions& opt, vid_t lo,
                           vid_t hi, F&& f) {
  lo = std::max(lo, opt.rows_lo), hi = std::min(hi, opt.rows_hi);
  if (lo >= hi) return;
  const vid_t span = hi - lo;
  for (const EdgeList& l : lists) {
    const size_t m = l.size();
    const vid_t* src = l.src.data();
    const vid_t* dst = l.dst.data();
    for (size_t i = 0; i < m; ++i) {
      const vid_t u = src[i], v = dst[i];
      if (u == v && opt.drop_self_loops) continue;
      const weight_t w = weighted ? l.weight[i] : 0;
      if (u - lo < span) f(u, v, w);
      if (opt.symmetrize && u != v && v - lo < span) f(v, u, w);
    }
  }
}

// Every thread of the team owns a range of rows, bounds[t] .. bounds[t+1],
// and reads every list, storing only its own rows' edges: no atomics, so
// the stores into random rows stream (an atomic per edge waits for each
// store before it, most of which miss). The price, every thread reading
// every list, is one sequential pass per thread.
template <typename F>
void for_each_edge_by_owner(const std::vector<EdgeList>& lists, bool weighted, const BuildOptions& opt,
                            const std::vector<vid_t>& bounds, F&& f) {
  const int owners = int(bounds.size()) - 1;
  // A loop, not a team of `owners`: a smaller team still covers every range.
#pragma omp parallel for schedule(static, 1)
  for (int t = 0; t < owners; ++t)
    for_each_edge_of_rows(lists, weighted, opt, bounds[size_t(t)], bounds[size_t(t) + 1], f);
}

// Row ranges for `owners` threads over the rows stored, [lo, hi) (a rank's
// rows, not every vertex's): even in ids, or in stored edges once `off`
// holds row starts.
std::vector<vid_t> owner_bounds(vid_t lo, vid_t hi, int owners, const eid_t* off = nullptr) {
  std::vector<vid_t> b(size_t(owners) + 1, hi);
  b[0] = lo;
  for (int t = 1; t < owners; ++t) {
    if (off) {
      const eid_t at = off[lo] + (off[hi] - off[lo]) / eid_t(owners) * eid_t(t);
      b[size_t(t)] = vid_t(std::upper_bound(off + lo, off + hi, at) - off - 1);
    } else {
      b[size_t(t)] = lo + vid_t(uint64_t(hi - lo) * uint64_t(t) / uint64_t(owners));
    }
  }
  for (int t = 1; t <= owners; ++t) b[size_t(t)] = std::max(b[size_t(t)], b[size_t(t) - 1]);
  return b;
}

}  // namespace

eid_t dedupe_neighbor_lists(Csr& csr) {
  const vid_t n = csr.num_vertices();
  eid_t* off = csr.offsets.mutable_data();
  vid_t* tgt = csr.targets.mutable_data();
  weight_t* wgt = csr.weights.empty() ? nullptr : csr.weights.mutable_data();
  Buffer<eid_t> deg(size_t(n) + 1);
  eid_t removed = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : removed)
  for (vid_t v = 0; v < n; ++v) {
    eid_t lo = off[v], hi = off[v + 1], out = lo;
    for (eid_t e = lo; e < hi; ++e) {
      if (out > lo && tgt[out - 1] == tgt[e]) {
        if (wgt && wgt[e] < wgt[out - 1]) wgt[out - 1] = wgt[e];  // keep the lightest
        continue;
      }
      tgt[out] = tgt[e];
      if (wgt) wgt[out] = wgt[e];
      ++out;
    }
    deg[v] = out - lo;
    removed += (hi - lo) - (out - lo);
  }
  if (removed == 0) return csr.num_edges();
  // Lists only move left, so a sequential memmove in vertex order is safe.
  eid_t pos = 0;
  for (vid_t v = 0; v < n; ++v) {
    eid_t lo = off[v], d = deg[v];
    if (pos != lo) {
      std::memmove(tgt + pos, tgt + lo, d * sizeof(vid_t));
      if (wgt) std::memmove(wgt + pos, wgt + lo, d * sizeof(weight_t));
    }
    off[v] = pos;
    pos += d;
  }
  off[n] = pos;
  return pos;
}

void sort_neighbor_lists(Csr& csr) {
  sort_neighbor_lists(csr, csr.targets.mutable_data(), csr.weights.empty() ? nullptr : csr.weights.mutable_data(), 0,
                      csr.num_vertices());
}

void sort_neighbor_lists(const Csr& csr, vid_t* tgt, weight_t* wgt, vid_t lo, vid_t hi) {
  const eid_t* off = csr.offsets.data();
  if (!wgt) {
#pragma omp parallel for schedule(dynamic, 256)
    for (vid_t v = lo; v < hi; ++v) std::sort(tgt + off[v], tgt + off[v + 1]);
    return;
  }
#pragma omp parallel
  {
    std::vector<uint64_t> tmp;
#pragma omp for schedule(dynamic, 256)
    for (vid_t v = lo; v < hi; ++v) {
      eid_t first = off[v], d = off[v + 1] - first;
      if (d < 2) continue;
      tmp.resize(d);
      for (eid_t i = 0; i < d; ++i) tmp[i] = (uint64_t(tgt[first + i]) << 32) | wgt[first + i];
      std::sort(tmp.begin(), tmp.end());
      for (eid_t i = 0; i < d; ++i) {
        tgt[first + i] = vid_t(tmp[i] >> 32);
        wgt[first + i] = weight_t(tmp[i]);
      }
    }
  }
}

Graph build_graph(std::vector<EdgeList>&& lists, vid_t n, bool weighted, const BuildOptions& opt) {
  uint64_t edges = 0;
  for (const EdgeList& l : lists) edges += l.size() * (opt.symmetrize ? 2 : 1);
  // Offsets and cursors per vertex, targets (and weights) per edge. Checked
  // first: with overcommit a too-large malloc succeeds and the first touch
  // would bring the OOM killer instead of an error.
  check_memory((uint64_t(n) + 1) * 2 * sizeof(eid_t) + edges * (sizeof(vid_t) + (weighted ? sizeof(weight_t) : 0)),
               "a graph of " + std::to_string(n) + " vertices and " + std::to_string(edges) + " edges");
  Csr csr;
  csr.offsets.allocate(size_t(n) + 1);
  eid_t* off = csr.offsets.mutable_data();
#pragma omp parallel for schedule(static)
  for (size_t v = 0; v <= n; ++v) off[v] = 0;

  for (const EdgeList& l : lists)
    for (size_t i = 0; i < l.size(); i += 1 + l.size() / 64)  // cheap sanity probe
      CHATTY_CHECK(l.src[i] < n && l.dst[i] < n, "internal: edge id beyond |V|");

  const int owners = std::max(1, omp_get_max_threads());
  const vid_t rows_lo = std::min(opt.rows_lo, n), rows_hi = std::max(rows_lo, std::min(opt.rows_hi, n));
  for_each_edge_by_owner(lists, weighted, opt, owner_bounds(rows_lo, rows_hi, owners),
                         [&](vid_t u, vid_t, weight_t) { ++off[u]; });
  const eid_t m = parallel_exclusive_scan(off, off, n);
  csr.targets.allocate(m);
  if (weighted) csr.weights.allocate(m);
  {
    // Each row's start serves as its cursor, so after the scatter off[v]
    // holds row v's end: one shift puts the starts back (no second array).
    const std::vector<vid_t> bounds = owner_bounds(rows_lo, rows_hi, owners, off);
    vid_t* tgt = csr.targets.mutable_data();
    weight_t* wgt = weighted ? csr.weights.mutable_data() : nullptr;
    for_each_edge_by_owner(lists, weighted, opt, bounds, [&](vid_t u, vid_t v, weight_t w) {
      const eid_t pos = off[u]++;
      tgt[pos] = v;
      if (wgt) wgt[pos] = w;
    });
    if (n > 0) std::memmove(off + 1, off, size_t(n) * sizeof(eid_t));
    off[0] = 0;
  }
  lists.clear();
  lists.shrink_to_fit();
  sort_neighbor_lists(csr);
  if (opt.dedupe) {
    eid_t kept = dedupe_neighbor_lists(csr);
    csr.targets.shrink(kept);
    if (weighted) csr.weights.shrink(kept);
  }
  return Graph(std::move(csr), /*directed=*/!opt.symmetrize);
}

Buffer<weight_t> default_weights(const Csr& csr, uint64_t seed, vid_t lo, vid_t hi) {
  hi = std::min(hi, csr.num_vertices());
  const bool all = lo == 0 && hi == csr.num_vertices();
  Buffer<weight_t> buf;
  weight_t* w;
  if (all) {
    buf.allocate(csr.num_edges());
    w = buf.mutable_data();
  } else {
    std::tie(w, buf) = reserve_held<weight_t>(csr.num_edges(), csr.offsets[lo], csr.offsets[hi]);
  }
  const uint64_t key = splitmix64(seed ^ 0x5757ull);
#pragma omp parallel for schedule(dynamic, 1024)
  for (vid_t u = lo; u < hi; ++u)
    for (eid_t e = csr.offsets[u]; e < csr.offsets[u + 1]; ++e) {
      vid_t v = csr.targets[e];
      uint64_t a = std::min(u, v), b = std::max(u, v);
      w[e] = weight_t(hash2(key, (b << 32) | a) % 255) + 1;
    }
  return buf;
}

}  // namespace chatty
