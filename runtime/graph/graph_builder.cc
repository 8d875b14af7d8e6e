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
// symmetrizing, self loops filtered), parallel over each list.
template <typename F>
void for_each_stored_edge(const std::vector<EdgeList>& lists, bool weighted, const BuildOptions& opt, F&& f) {
  for (const EdgeList& l : lists) {
    const size_t m = l.size();
#pragma omp parallel for schedule(static, 4096)
    for (size_t i = 0; i < m; ++i) {
      vid_t u = l.src[i], v = l.dst[i];
      if (u == v && opt.drop_self_loops) continue;
      weight_t w = weighted ? l.weight[i] : 0;
      if (u >= opt.rows_lo && u < opt.rows_hi) f(u, v, w);
      if (opt.symmetrize && u != v && v >= opt.rows_lo && v < opt.rows_hi) f(v, u, w);
    }
  }
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

  for_each_stored_edge(lists, weighted, opt, [&](vid_t u, vid_t, weight_t) {
    std::atomic_ref<eid_t>(off[u]).fetch_add(1, std::memory_order_relaxed);
  });
  const eid_t m = parallel_exclusive_scan(off, off, n);
  csr.targets.allocate(m);
  if (weighted) csr.weights.allocate(m);
  {
    Buffer<eid_t> cursor(n);
#pragma omp parallel for schedule(static)
    for (size_t v = 0; v < n; ++v) cursor[v] = off[v];
    vid_t* tgt = csr.targets.mutable_data();
    weight_t* wgt = weighted ? csr.weights.mutable_data() : nullptr;
    for_each_stored_edge(lists, weighted, opt, [&](vid_t u, vid_t v, weight_t w) {
      eid_t pos = std::atomic_ref<eid_t>(cursor[u]).fetch_add(1, std::memory_order_relaxed);
      tgt[pos] = v;
      if (wgt) wgt[pos] = w;
    });
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
