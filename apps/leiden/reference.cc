#include "apps/leiden/reference.h"

#include <algorithm>
#include <map>

#include "apps/leiden/refine.h"
#include "apps/louvain/reference_levels.h"

namespace chatty::reference {

namespace {

using levels::Level;

// The refinement of `comm` (refine.h), one vertex after another; `salt`
// the level's (salt_of).
std::vector<uint32_t> refine(const Level& l, const std::vector<uint32_t>& comm, uint64_t m, double resolution,
                             uint32_t salt) {
  const uint32_t n = uint32_t(l.k.size());
  const double two_m = 2.0 * double(m);
  std::vector<int64_t> stot(n, 0), vext(n, 0);
  for (uint32_t v = 0; v < n; ++v) {
    stot[comm[v]] += l.k[v];
    for (const auto& [u, w] : l.adj[v])
      if (comm[u] == comm[v]) vext[v] += int64_t(w);
  }
  std::vector<uint32_t> ref(n);
  std::vector<int64_t> rstot = l.k, rext = vext;
  std::vector<bool> alone(n, true);
  std::vector<uint8_t> round(n);
  for (uint32_t v = 0; v < n; ++v)
    ref[v] = v, round[v] = louvain::round_of(salt, leiden::kRefineSweep, v, leiden::kLeidenRounds);
  for (uint8_t j = 0; j < leiden::kLeidenRounds; ++j) {
    std::vector<uint32_t> next = ref;
    std::vector<int64_t> joined(n, 0);
    for (uint32_t v = 0; v < n; ++v) {
      if (round[v] != j || !alone[v]) continue;
      const int64_t k = l.k[v], kc = stot[comm[v]];
      if (k == 0 || !leiden::well_connected(vext[v], k, kc, resolution, two_m)) continue;
      std::map<uint32_t, int64_t> to;
      for (const auto& [u, w] : l.adj[v])
        if (comm[u] == comm[v]) to[ref[u]] += int64_t(w);
      const louvain::Score score(k, resolution, two_m);
      std::map<uint32_t, double> gain;  // of the candidates
      double best_gain = 0;
      for (const auto& [c, w] : to) {
        if ((alone[c] && round[c] == j) || !leiden::well_connected(rext[c], rstot[c], kc, resolution, two_m)) continue;
        best_gain = std::max(best_gain, gain[c] = score(w, rstot[c]));
      }
      leiden::TieDraw draw(salt, v, best_gain);
      for (const auto& [c, x] : gain) draw.offer(c, x);
      next[v] = draw.pick(), joined[v] = next[v] == v ? 0 : to[next[v]];
    }
    for (uint32_t v = 0; v < n; ++v) {
      const uint32_t c = next[v];
      if (round[v] != j || c == v) continue;
      rstot[c] += l.k[v], rext[c] += vext[v] - 2 * joined[v], alone[c] = false;
      alone[v] = false, rstot[v] = 0, rext[v] = 0;
    }
    ref = next;
  }
  return ref;
}

// Each community of `part` split into its connected parts, each named by
// its least vertex (a search from every vertex in order).
std::vector<uint32_t> split(const Graph& g, const std::vector<uint32_t>& part) {
  const Csr& c = g.out();
  const uint32_t n = c.num_vertices();
  std::vector<uint32_t> label(n, kInfinity), stack;
  for (uint32_t s = 0; s < n; ++s) {
    if (label[s] != kInfinity) continue;
    label[s] = s, stack.assign(1, s);
    while (!stack.empty()) {
      const uint32_t v = stack.back();
      stack.pop_back();
      for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e)
        if (const uint32_t u = c.targets[e]; label[u] == kInfinity && part[u] == part[s])
          label[u] = s, stack.push_back(u);
    }
  }
  return label;
}

}  // namespace

namespace {

// One pass of levels from the partition `from` (every vertex alone where
// empty): the communities, split into connected parts, and the levels.
// `max_level` (0: none) caps this pass's levels.
LouvainResult leiden_pass(const Graph& g, const std::vector<uint32_t>& from, uint32_t pass, double resolution,
                          double threshold, uint32_t max_level) {
  Level l = levels::input_level(g);
  const size_t n = l.k.size();
  int64_t degrees = 0;
  for (int64_t k : l.k) degrees += k;
  const uint64_t m = uint64_t(degrees / 2);
  std::vector<uint32_t> of(n), part(n), start = from;
  for (size_t v = 0; v < n; ++v) of[v] = uint32_t(v), part[v] = from.empty() ? uint32_t(v) : from[v];
  LouvainResult out;
  out.levels = 1;
  double before = 0, tolerance = louvain::kFirstTolerance;
  for (uint32_t level = 0; m > 0; ++level, tolerance /= 10) {
    const bool started = level > 0 || !from.empty();
    const uint32_t salt = leiden::salt_of(pass, level);
    const levels::Moved moved =
        levels::move(l, m, resolution, salt, tolerance, started ? &start : nullptr, leiden::kLeidenRounds);
    if (level > 0 && !(moved.modularity > moved.start)) break;
    if (level == 0) before = moved.start;
    for (size_t v = 0; v < n; ++v) part[v] = moved.comm[of[v]];
    out.levels = level + 1;
    const bool again = level == 0 && !from.empty();  // refined even where nothing moved
    if ((max_level && out.levels >= max_level) || (!again && moved.modularity - before <= threshold)) break;
    before = moved.modularity;
    uint32_t count = 0;
    const std::vector<uint32_t> id = levels::renumber(refine(l, moved.comm, m, resolution, salt), count);
    if (count == l.k.size()) break;
    for (uint32_t& x : of) x = id[x];
    std::map<uint32_t, uint32_t> first;  // each community's first refined community
    for (size_t v = 0; v < l.k.size(); ++v) {
      auto [it, fresh] = first.emplace(moved.comm[v], id[v]);
      if (!fresh) it->second = std::min(it->second, id[v]);
    }
    start.assign(count, 0);
    for (size_t v = 0; v < l.k.size(); ++v) start[id[v]] = first[moved.comm[v]];
    l = levels::contract(l, id, count);
  }
  out.labels = split(g, part);
  out.modularity = modularity(g, out.labels, resolution);
  return out;
}

}  // namespace

// Passes, each from the best one's communities, until QuietPasses ends
// them (one gaining no more than the threshold is not kept); max_level
// caps the levels of all passes together, and the levels reported are
// those up to the end of the best pass.
LouvainResult leiden(const Graph& g, double resolution, double threshold, uint32_t max_level, uint32_t passes) {
  LouvainResult best = leiden_pass(g, {}, 0, resolution, threshold, max_level);
  uint32_t total = best.levels;
  leiden::QuietPasses quiet;
  for (uint32_t pass = 1; g.num_edges() > 0 && !(max_level && total >= max_level) && !(passes && pass >= passes);
       ++pass) {
    LouvainResult next = leiden_pass(g, best.labels, pass, resolution, threshold, max_level ? max_level - total : 0);
    total += next.levels;
    const double gain = next.modularity - best.modularity;
    if (gain > threshold) {
      best = std::move(next);
      best.levels = total;
    }
    if (quiet.end_after(gain)) break;
  }
  return best;
}

bool communities_connected(const Graph& g, const std::vector<uint32_t>& labels, uint32_t& where) {
  const std::vector<uint32_t> parts = split(g, labels);
  std::map<uint32_t, uint32_t> part_of;  // a community's first part
  for (uint32_t v = 0; v < labels.size(); ++v) {
    const auto [it, fresh] = part_of.emplace(labels[v], parts[v]);
    if (!fresh && it->second != parts[v]) return where = v, false;
  }
  return true;
}

}  // namespace chatty::reference
