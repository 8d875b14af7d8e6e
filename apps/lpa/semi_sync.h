// The semi-synchronous label propagation of program.h on the host
// operators. The colouring is sequential, as greedy colouring is (one pass
// over the edges); each class's update and the completion test are steps
// of the team.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/host/host_operators.h"
#include "runtime/host/operators.h"

namespace chatty::lpa {

// NetworkX's degree: a self-loop counts twice.
inline uint64_t degree(const Csr& c, vid_t v) {
  uint64_t d = c.degree(v);
  for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) d += c.targets[e] == v;
  return d;
}

// Greedy colouring of `order` in colours of type K (kNone: not yet
// coloured): each vertex takes the least colour none of its coloured
// neighbours has. Returns the classes, colour 0 first, or nothing where a
// vertex needs a colour K cannot hold.
template <typename K>
std::optional<std::vector<std::vector<vid_t>>> greedy_classes(const Csr& c, const std::vector<vid_t>& order) {
  constexpr K kNone = std::numeric_limits<K>::max();
  std::vector<K> colour(c.num_vertices(), kNone);
  std::vector<vid_t> seen_by(1, kInfinity);  // seen_by[k]: the last vertex a neighbour of colour k
  size_t colours = 0;
  const size_t n = order.size();
  for (size_t i = 0; i < n; ++i) {
    // The order jumps between rows: the rows a few vertices ahead are
    // fetched while this one is read.
    if (i + 8 < n) __builtin_prefetch(&c.offsets[order[i + 8]]);
    if (i + 4 < n) __builtin_prefetch(&c.targets[c.offsets[order[i + 4]]]);
    const vid_t u = order[i];
    for (eid_t e = c.offsets[u], hi = c.offsets[u + 1]; e < hi; ++e) {
      if (e + 16 < hi) __builtin_prefetch(&colour[c.targets[e + 16]]);
      if (const K k = colour[c.targets[e]]; k != kNone) seen_by[k] = u;
    }
    size_t k = 0;
    while (seen_by[k] == u) ++k;
    if (k >= kNone) return std::nullopt;
    colour[u] = K(k);
    if (k + 1 >= seen_by.size()) seen_by.resize(k + 2, kInfinity);
    colours = std::max(colours, k + 1);
  }
  // Each class in id order, so that a sweep reads the rows in order.
  std::vector<std::vector<vid_t>> classes(colours);
  for (vid_t v = 0; v < c.num_vertices(); ++v) classes[colour[v]].push_back(v);
  return classes;
}

// Greedy colouring, largest degree first (ties in id order). Sequential,
// as the greedy rule is: colours a byte each while they fit (up to 255;
// kron:20 takes 186), so that the colours, read at random, stay in the
// core's cache.
inline std::vector<std::vector<vid_t>> colour_classes(const Csr& c) {
  const vid_t n = c.num_vertices();
  // The order by a counting sort on the degree, ids ascending within one.
  std::vector<uint64_t> deg(n);
  uint64_t most = 0;
  for (vid_t v = 0; v < n; ++v) deg[v] = degree(c, v), most = std::max(most, deg[v]);
  std::vector<vid_t> at(most + 2, 0), order(n);
  for (vid_t v = 0; v < n; ++v) ++at[most - deg[v] + 1];
  for (size_t d = 1; d < at.size(); ++d) at[d] += at[d - 1];
  for (vid_t v = 0; v < n; ++v) order[at[most - deg[v]]++] = v;
  if (auto classes = greedy_classes<uint8_t>(c, order)) return std::move(*classes);
  return *greedy_classes<uint32_t>(c, order);
}

// The labels most frequent among v's neighbours (with multiplicity), in
// `best`, ascending; empty for a vertex without neighbours. Counted in
// `count` (a slot per label, all zero between calls) in one pass over the
// list, the labels met listed in `met`: a hub's list is read once, not
// sorted.
struct Tally {
  std::vector<uint32_t> count, met, best;
};
inline void most_frequent(const Csr& c, const uint32_t* label, vid_t v, Tally& t) {
  t.best.clear(), t.met.clear();
  if (t.count.size() < c.num_vertices()) t.count.assign(c.num_vertices(), 0);
  uint32_t most = 0;
  // Two dependent misses an edge (the label, then its count): fetched ahead.
  for (eid_t e = c.offsets[v], hi = c.offsets[v + 1]; e < hi; ++e) {
    if (e + 16 < hi) __builtin_prefetch(&label[c.targets[e + 16]]);
    if (e + 8 < hi) __builtin_prefetch(&t.count[label[c.targets[e + 8]]]);
    const uint32_t l = label[c.targets[e]];
    if (t.count[l]++ == 0) t.met.push_back(l);
    most = std::max(most, t.count[l]);
  }
  for (uint32_t l : t.met) {
    if (t.count[l] == most) t.best.push_back(l);
    t.count[l] = 0;
  }
  std::sort(t.best.begin(), t.best.end());
}

// Whether `l` is among `best` (sorted).
inline bool among(const std::vector<uint32_t>& best, uint32_t l) {
  return std::binary_search(best.begin(), best.end(), l);
}

// A vertex is `dirty` until it is seen settled (holding one of its
// neighbours' most frequent labels) with none of their labels, nor its
// own, changed since. The update of a settled vertex keeps its label, so a
// sweep skips clean vertices: the same labels as updating every vertex
// each sweep, as NetworkX does, at the cost of the neighbourhoods that
// changed.
inline std::vector<uint32_t> communities(host::HostOperators& h, const Csr& c) {
  const vid_t n = c.num_vertices();
  const std::vector<std::vector<vid_t>> classes = colour_classes(c);
  std::vector<uint32_t> label(n);
  std::vector<uint8_t> dirty(n, 1);
  for (vid_t v = 0; v < n; ++v) label[v] = v;
  const auto is_dirty = [&](vid_t v) { return std::atomic_ref<uint8_t>(dirty[v]).load(std::memory_order_relaxed); };
  const auto mark = [&](vid_t v, uint8_t d) { std::atomic_ref<uint8_t>(dirty[v]).store(d, std::memory_order_relaxed); };
  std::atomic<bool> changed{false};
  h.team([&](host::TeamThread& t) {
    thread_local Tally tally;
    // NetworkX tests for completion (every vertex holds one of its
    // neighbours' most frequent labels) before each sweep; a sweep changes
    // no label exactly when that test would pass, and then it is the last.
    while (!t.interrupted()) {
      t.single([&] { changed.store(false, std::memory_order_relaxed); });
      // A class is an independent set: its vertices read only other classes' labels.
      for (const std::vector<vid_t>& members : classes)
        host::compute(t, 0, members.size(), [&](int, size_t i) {
          const vid_t v = members[i];
          if (!is_dirty(v)) return uint64_t(0);
          most_frequent(c, label.data(), v, tally);
          const std::vector<uint32_t>& best = tally.best;
          uint32_t next = label[v];
          if (best.size() == 1)
            next = best[0];
          else if (best.size() > 1 && !among(best, next))
            next = best.back();
          mark(v, 0);  // settled now, against its neighbours' labels
          if (next != label[v]) {
            label[v] = next;
            changed.store(true, std::memory_order_relaxed);
            for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) mark(c.targets[e], 1);  // v too, by a self-loop
          }
          return uint64_t(c.degree(v));
        });
      const bool again = changed.load(std::memory_order_relaxed);
      t.barrier();  // every thread has read the flag before the next sweep clears it
      if (!again) break;
    }
  });
  return label;
}

}  // namespace chatty::lpa
