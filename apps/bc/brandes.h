// Betweenness centrality by Brandes' algorithm from the host row
// operators, as GAP's `bc` runs it: per source, a forward BFS level by
// level counting shortest paths (sigma), then a backward sweep over the
// levels in reverse, each vertex pulling its dependency from its
// successors (no atomics on the way back), found from the bits the forward
// sweep set on their edges. Each level's vertices are split over the
// devices; a sweep is one parallel region (host::for_each_level).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <utility>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/host/row_operators.h"

namespace chatty::bc {

struct Scores {
  std::vector<double> score;  // the sum of every source's dependencies
  std::vector<double> device_seconds;
  uint64_t edges = 0;  // edges examined, both sweeps
  uint64_t levels = 0;
};

inline Scores brandes(const Graph& g, const std::vector<vid_t>& sources, int devices) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  Scores out;
  out.score.assign(n, 0.0);
  out.device_seconds.assign(size_t(devices), 0.0);
  std::vector<int32_t> depth(n);
  std::vector<double> sigma(n), delta(n);
  // The edges on shortest paths from the source (one bit per edge), marked
  // going forward: the backward sweep then reads a bit per edge in order
  // instead of each target's depth.
  std::vector<uint64_t> on_path((size_t(c.num_edges()) + 63) / 64);
  std::vector<vid_t> order(n);      // the vertices by level, as discovered
  std::vector<size_t> level_begin;  // level d is order[level_begin[d], level_begin[d + 1])
  auto add = [&](const host::RowRun& run) {
    for (size_t d = 0; d < run.device_seconds.size(); ++d) out.device_seconds[d] += run.device_seconds[d];
    out.edges += run.work;
  };
  for (vid_t s : sources) {
#pragma omp parallel for schedule(static)
    for (vid_t v = 0; v < n; ++v) depth[v] = -1, sigma[v] = 0, delta[v] = 0;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < on_path.size(); ++i) on_path[i] = 0;
    depth[s] = 0, sigma[s] = 1, order[0] = s;
    // What level l discovers is appended after its end and counted in
    // found[(l + 1) % 3], which level l + 1's range reads after the barrier.
    // A slow thread may still be reading found[l % 3] (its range of level
    // l) while others append, hence a third counter: found[(l + 2) % 3],
    // which level l zeroes for level l + 1's discoveries.
    std::array<std::atomic<size_t>, 3> found{};
    level_begin.clear();
    size_t end = 1;  // the last level's end (thread 0's)
    // Each thread buffers what it discovers and appends it to the next
    // level in one step: a shared tail per vertex would bounce between cores.
    thread_local std::vector<vid_t> discovered;
    add(host::for_each_level(
        devices,
        [&](int l, size_t hi) {
          return l == 0 ? std::pair<size_t, size_t>{0, 1}
                        : std::pair<size_t, size_t>{hi, hi + found[size_t(l) % 3].load(std::memory_order_relaxed)};
        },
        [&](int l, size_t lo, size_t hi) {
          level_begin.push_back(lo);
          end = hi;
          found[size_t(l + 2) % 3].store(0, std::memory_order_relaxed);
        },
        [&](int level, int, vid_t i) {
          const vid_t u = order[i];
          const int32_t next = level + 1;
          const eid_t lo = c.offsets[u], hi = c.offsets[u + 1];
          // u's bits gather in a word and are stored once per word: with a
          // plain store where the word is u's alone, else an atomic OR (its
          // neighbours in the CSR may be expanded by another thread).
          uint64_t bits = 0;
          auto store = [&](eid_t word) {
            if (!bits) return;
            if ((word << 6) >= lo && (word << 6) + 64 <= hi)
              on_path[word] = bits;
            else
              std::atomic_ref<uint64_t>(on_path[word]).fetch_or(bits, std::memory_order_relaxed);
            bits = 0;
          };
          for (eid_t e = lo; e < hi; ++e) {
            const vid_t v = c.targets[e];
            std::atomic_ref<int32_t> dv(depth[v]);
            int32_t seen = dv.load(std::memory_order_relaxed);
            if (seen < 0 && dv.compare_exchange_strong(seen, next, std::memory_order_relaxed)) {
              discovered.push_back(v);
              seen = next;
            }
            if (seen == next) {
              std::atomic_ref<double>(sigma[v]).fetch_add(sigma[u], std::memory_order_relaxed);
              bits |= uint64_t(1) << (e & 63);
            }
            if ((e & 63) == 63) store(e >> 6);
          }
          if (lo < hi) store((hi - 1) >> 6);
          return uint64_t(c.degree(u));
        },
        [&](int l, size_t, size_t hi) {
          if (discovered.empty()) return;
          const size_t at = hi + found[size_t(l + 1) % 3].fetch_add(discovered.size(), std::memory_order_relaxed);
          std::copy(discovered.begin(), discovered.end(), order.begin() + long(at));
          discovered.clear();
        }));
    level_begin.push_back(end);
    const int levels = int(level_begin.size()) - 1;
    out.levels += uint64_t(levels);
    add(host::for_each_level(
        devices,
        [&](int k, size_t) {  // deepest first
          const int d = levels - 1 - k;
          return d < 0 ? std::pair<size_t, size_t>{0, 0}
                       : std::pair<size_t, size_t>{level_begin[size_t(d)], level_begin[size_t(d) + 1]};
        },
        [](int, size_t, size_t) {},
        [&](int, int, vid_t i) {
          const vid_t w = order[i];
          double sum = 0;
          const eid_t lo = c.offsets[w], hi = c.offsets[w + 1];
          for (eid_t word = lo >> 6; lo < hi && word <= (hi - 1) >> 6; ++word) {
            uint64_t bits = on_path[word];
            if (word == lo >> 6) bits &= ~uint64_t(0) << (lo & 63);
            if (word == (hi - 1) >> 6) bits &= (uint64_t(2) << ((hi - 1) & 63)) - 1;
            while (bits) {
              const vid_t x = c.targets[(word << 6) + eid_t(__builtin_ctzll(bits))];
              sum += (1 + delta[x]) / sigma[x];
              bits &= bits - 1;
            }
          }
          delta[w] = sigma[w] * sum;
          if (w != s) out.score[w] += delta[w];
          return uint64_t(c.degree(w));
        },
        [](int, size_t, size_t) {}));
  }
  return out;
}

}  // namespace chatty::bc
