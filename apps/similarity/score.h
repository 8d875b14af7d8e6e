// The similarity program's steps on host devices: one compute over the
// pairs, the rows or the vertices asked about, shared by the devices (and
// the ranks) in ranges of about equal list lengths.
#pragma once

#include <algorithm>
#include <span>

#include "apps/similarity/program.h"
#include "runtime/base/operators.h"
#include "runtime/graph/upper_edges.h"
#include "runtime/host/edge_triangles.h"
#include "runtime/host/host_operators.h"
#include "runtime/host/operators.h"

namespace chatty::similarity {

inline std::span<const vid_t> list(const Csr& c, vid_t v) {
  return {c.targets.data() + c.offsets[v], size_t(c.offsets[v + 1] - c.offsets[v])};
}

// Each given pair's score at its index.
inline void score_pairs(const Csr& c, Similarity m, std::span<const VertexPair> pairs, host::HostOperators& h,
                        std::vector<double>& out) {
  const host::DeviceRanges ranges = h.rows(vid_t(pairs.size()), [&](vid_t i) {
    return 1 + c.offsets[pairs[i].first + 1] - c.offsets[pairs[i].first] + c.offsets[pairs[i].second + 1] -
           c.offsets[pairs[i].second];
  });
  h.team([&](host::TeamThread& t) {
    host::compute(t, ranges, [&](int, size_t i) -> uint64_t {
      const auto [u, v] = pairs[i];
      const auto a = list(c, u), b = list(c, v);
      const ops::Common k = ops::count_common(a.data(), a.size(), b.data(), b.size());
      out[i] = similarity::score(m, k.count, a.size(), b.size());
      return k.read;
    });
  });
}

// Every edge's score, at its UpperEdges number: its common neighbours are
// its triangles, counted at once for every edge (host::edge_triangles).
// An edge's triangles may lie in any rows: under ranks, rank 0 counts them
// all, on its devices.
inline void score_edges(const Graph& g, Similarity m, host::HostOperators& h, std::vector<double>& out) {
  const Csr& c = g.out();
  const UpperEdges up = upper_edges(c);
  out.assign(up.count(), 0.0);
  if (h.share().rank != 0) {
    h.note("rank 0 scores every edge");
    return;
  }
  const vid_t n = c.num_vertices();
  std::vector<uint32_t> common(up.count(), 0);
  host::LowerLists lower(g);
  const Csr& l = lower.lists();
  const host::DeviceRanges by_lower =
      host::balanced_ranges(n, h.devices(), [&](vid_t x) { return 1 + l.offsets[x + 1] - l.offsets[x]; });
  const host::DeviceRanges rows =
      host::balanced_ranges(n, h.devices(), [&](vid_t u) { return 1 + c.offsets[u + 1] - c.offsets[u]; });
  h.team([&](host::TeamThread& t) {
    lower.number(t, c, up);
    host::edge_triangles(t, lower, by_lower, common.data());
    host::compute(t, rows, [&](int, size_t row) -> uint64_t {
      const vid_t u = vid_t(row);
      const eid_t du = c.offsets[u + 1] - c.offsets[u];
      for (eid_t e = c.offsets[u] + up.above[u]; e < c.offsets[u + 1]; ++e) {
        const vid_t v = c.targets[e];
        const eid_t k = up.number(c, u, e);
        out[k] = similarity::score(m, common[k], du, c.offsets[v + 1] - c.offsets[v]);
      }
      return du;
    });
  });
}

// The K best-scoring vertices two hops from each vertex of `of` (every
// vertex where empty): common neighbours counted by walking the two hops
// into a per-thread array, then the best K by score, ties to the lower id.
inline void score_top_k(const Csr& c, Similarity m, std::span<const vid_t> of, uint32_t k, host::HostOperators& h,
                        std::vector<double>& out) {
  const vid_t n = c.num_vertices();
  const vid_t items = of.empty() ? n : vid_t(of.size());
  auto vertex = [&](size_t i) { return of.empty() ? vid_t(i) : of[i]; };
  out.assign(size_t(items) * 2 * k, 0.0);
  const host::DeviceRanges ranges = h.rows(items, [&](vid_t i) {
    eid_t two_hops = 1;
    for (vid_t v : list(c, vertex(i))) two_hops += c.offsets[v + 1] - c.offsets[v];
    return two_hops;
  });
  h.team([&](host::TeamThread& t) {
    thread_local std::vector<uint32_t> common;
    thread_local std::vector<vid_t> met;
    thread_local std::vector<std::pair<double, vid_t>> scored;
    if (common.size() < n) common.assign(n, 0);
    host::compute(t, ranges, [&](int, size_t i) -> uint64_t {
      const vid_t s = vertex(i);
      uint64_t read = 0;
      met.clear();
      for (vid_t v : list(c, s)) {
        const auto two = list(c, v);
        read += two.size();
        for (vid_t w : two) {
          if (w == s) continue;
          if (common[w]++ == 0) met.push_back(w);
        }
      }
      scored.clear();
      const uint64_t ds = c.offsets[s + 1] - c.offsets[s];
      for (vid_t w : met) {
        scored.emplace_back(similarity::score(m, common[w], ds, c.offsets[w + 1] - c.offsets[w]), w);
        common[w] = 0;
      }
      const size_t keep = std::min<size_t>(k, scored.size());
      auto better = [](const auto& x, const auto& y) {
        return x.first > y.first || (x.first == y.first && x.second < y.second);
      };
      std::partial_sort(scored.begin(), scored.begin() + std::ptrdiff_t(keep), scored.end(), better);
      double* slot = out.data() + i * 2 * k;
      for (size_t j = 0; j < keep; ++j) slot[2 * j] = scored[j].first, slot[2 * j + 1] = double(scored[j].second) + 1;
      return read;
    });
  });
}

}  // namespace chatty::similarity
