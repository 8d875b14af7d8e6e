// The levels of Louvain's sequential reference (reference.cc), which
// Leiden's (apps/leiden/reference.cc) runs too: a level's graph as a map
// per vertex, its moving sweeps one vertex after another, its contraction.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "apps/louvain/level.h"
#include "runtime/graph/graph.h"

namespace chatty::reference::levels {

// A level's graph: the weight to each other vertex, the weight inside, the degree.
struct Level {
  std::vector<std::map<uint32_t, uint64_t>> adj;
  std::vector<uint64_t> self;
  std::vector<int64_t> k;
};

inline Level input_level(const Graph& g) {
  const Csr& c = g.out();
  const uint32_t n = c.num_vertices();
  Level l{std::vector<std::map<uint32_t, uint64_t>>(n), std::vector<uint64_t>(n, 0), std::vector<int64_t>(n, 0)};
  for (uint32_t v = 0; v < n; ++v)
    for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) {
      const uint64_t w = g.weighted() ? c.weights[e] : 1;
      const uint32_t u = c.targets[e];
      l.k[v] += int64_t(w);
      if (u == v) {
        l.k[v] += int64_t(w), l.self[v] += w;
      } else {
        l.adj[v][u] += w;
      }
    }
  return l;
}

inline double level_modularity(const Level& l, const std::vector<uint32_t>& comm, uint64_t m, double resolution) {
  uint64_t inside2 = 0;
  std::vector<int64_t> stot(l.k.size(), 0);
  for (size_t v = 0; v < l.k.size(); ++v) {
    inside2 += 2 * l.self[v];
    stot[comm[v]] += l.k[v];
    for (const auto& [u, w] : l.adj[v])
      if (comm[u] == comm[v]) inside2 += w;
  }
  louvain::Squares squares = 0;
  for (int64_t s : stot) squares += louvain::Squares(s) * louvain::Squares(s);
  return louvain::modularity(inside2 / 2, squares, m, resolution);
}

struct Moved {
  std::vector<uint32_t> comm;
  double start = 0, modularity = 0;
};

// The level's sweeps: round after round, the active vertices of the round
// deciding against the communities the rounds before left.
// From singletons, or from `start` (a community number below n per vertex).
inline Moved move(const Level& l, uint64_t m, double resolution, uint32_t level, double tolerance,
                  const std::vector<uint32_t>* start = nullptr, uint8_t rounds = louvain::kRounds) {
  const uint32_t n = uint32_t(l.k.size());
  Moved out;
  out.comm.resize(n);
  std::vector<int64_t> stot(n, 0);
  std::vector<bool> active(n);
  for (uint32_t v = 0; v < n; ++v) out.comm[v] = start ? (*start)[v] : v, active[v] = l.k[v] > 0;
  for (uint32_t v = 0; v < n; ++v) stot[out.comm[v]] += l.k[v];
  std::vector<uint32_t> best_comm = out.comm;
  out.start = out.modularity = level_modularity(l, out.comm, m, resolution);
  for (uint32_t sweep = 0; sweep < louvain::kMaxSweeps; ++sweep) {
    uint64_t moved = 0;
    for (uint8_t j = 0; j < rounds; ++j) {
      std::vector<uint32_t> next = out.comm;
      for (uint32_t v = 0; v < n; ++v) {
        if (louvain::round_of(level, sweep, v, rounds) != j || !active[v]) continue;
        active[v] = false;
        std::map<uint32_t, int64_t> to;
        for (const auto& [u, w] : l.adj[v]) to[out.comm[u]] += int64_t(w);
        if (stot[v] == 0) to[v] = 0;
        const uint32_t own = out.comm[v];
        const int64_t k = l.k[v];
        // The map's order makes the first of equal scores the lowest numbered.
        const louvain::Score score(k, resolution, 2.0 * double(m));
        double best = score(to.count(own) ? to[own] : 0, stot[own] - k);
        for (const auto& [c, w] : to) {
          if (c == own) continue;
          const double x = score(w, stot[c]);
          if (x > best) best = x, next[v] = c;
        }
      }
      for (uint32_t v = 0; v < n; ++v) {
        if (next[v] == out.comm[v]) continue;
        ++moved;
        stot[out.comm[v]] -= l.k[v], stot[next[v]] += l.k[v];
        for (const auto& [u, w] : l.adj[v]) active[u] = true;
      }
      out.comm = next;
    }
    if (moved == 0) break;
    const double before = out.modularity, q = level_modularity(l, out.comm, m, resolution);
    if (q > out.modularity) out.modularity = q, best_comm = out.comm;
    if (out.modularity - before <= tolerance) break;
  }
  out.comm = best_comm;
  return out;
}

// The communities numbered in order as the next level's vertices.
inline std::vector<uint32_t> renumber(const std::vector<uint32_t>& comm, uint32_t& count) {
  std::map<uint32_t, uint32_t> number;
  for (uint32_t c : comm) number[c] = 0;
  count = 0;
  for (auto& [c, x] : number) x = count++;
  std::vector<uint32_t> out(comm.size());
  for (size_t v = 0; v < comm.size(); ++v) out[v] = number[comm[v]];
  return out;
}

inline Level contract(const Level& l, const std::vector<uint32_t>& id, uint32_t count) {
  Level next{std::vector<std::map<uint32_t, uint64_t>>(count), std::vector<uint64_t>(count, 0),
             std::vector<int64_t>(count, 0)};
  for (size_t v = 0; v < l.k.size(); ++v) {
    next.self[id[v]] += l.self[v];
    next.k[id[v]] += l.k[v];
    for (const auto& [u, w] : l.adj[v]) {
      if (id[u] != id[v])
        next.adj[id[v]][id[u]] += w;
      else if (u > v)
        next.self[id[v]] += w;  // an edge inside, once
    }
  }
  return next;
}

}  // namespace chatty::reference::levels
