// Pull-gather superstep on the CPU (PageRank, k-core): each vertex gathers
// the values its in-neighbours published and the program computes its next
// value. The loop also writes what the vertex publishes for the next step
// into a second buffer (and sums the sink mass), so a superstep is a single
// pass over the graph. No atomics: every vertex is written by one thread.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/cpu/push_advance.h"
#include "runtime/parallel.h"

namespace chatty::cpu {

// Published values of the current values, double-buffered across
// supersteps: n each, in `storage` unless the caller placed them (in
// memory exposed to peers on other ranks).
template <typename V>
struct GatherState {
  V* contrib = nullptr;
  V* next_contrib = nullptr;
  double dangling = 0;  // sink mass: values of vertices without out-edges
  std::vector<V> storage;
};

// Where the second of two buffers of `bytes` each starts after the first:
// half a page off the first's alignment, so that a vertex's entries in the
// two never map to the same cache set (a gather reads one where it writes
// the other).
inline size_t second_buffer_offset(size_t bytes) { return (bytes + 2048 + 4095) / 4096 * 4096 - 2048; }

// Publishes the values of all n vertices, whose out-degrees `degree` holds,
// into `place` and `next_place` (n values each) or, when null, into
// storage of the state's own (a null `next_place` follows `place` at
// second_buffer_offset).
template <typename P>
GatherState<typename P::Value> gather_init(vid_t n, Degrees degree, const P& prog, const typename P::Value* val,
                                           typename P::Value* place = nullptr,
                                           typename P::Value* next_place = nullptr) {
  using V = typename P::Value;
  GatherState<V> s;
  const size_t second = second_buffer_offset(size_t(n) * sizeof(V)) / sizeof(V);
  if (!place) {
    s.storage.resize(second + n);
    place = s.storage.data();
  }
  if (!next_place) next_place = place + second;
  s.contrib = place;
  s.next_contrib = next_place;
  double dangling = 0;
#pragma omp parallel for schedule(static) reduction(+ : dangling)
  for (vid_t v = 0; v < n; ++v) {
    const eid_t d = degree[v];
    if (d == 0) dangling += double(val[v]);
    s.contrib[v] = s.next_contrib[v] = prog.publish(val[v], d);
  }
  // Both buffers start equal: a multi-device run refreshes remote entries
  // only when their value changes, so neither buffer may hold stale zeros.
  s.dangling = dangling;
  return s;
}

// In-neighbours' published values copied out of an array that other
// threads update in place (monotone programs): each copied whole, by a
// relaxed atomic load, in no particular order. The program then reads the
// copy as often as it likes, densely and without atomics.
template <typename V>
struct SnapshotValues {
  const V* copy;
  eid_t count;
  eid_t size() const { return count; }
  V operator[](eid_t i) const { return copy[i]; }
};

template <typename V>
SnapshotValues<V> snapshot(const V* published, const vid_t* sources, eid_t count, std::vector<V>& buf) {
  if (buf.size() < count) buf.resize(count);
  for (eid_t i = 0; i < count; ++i) buf[i] = __atomic_load_n(&published[sources[i]], __ATOMIC_RELAXED);
  return {buf.data(), count};
}

// In-neighbours' published values and, as one more, the sum the peers
// sent for the vertex by per-edge messages (in-neighbours they own publish
// zero here).
template <typename V>
struct InValuesAnd {
  InValues<V> in;
  V extra;
  eid_t size() const { return in.count + 1; }
  V operator[](eid_t i) const { return i < in.count ? in[i] : extra; }
};

// Where one superstep of a gather reads and writes: a device's values and
// published-value buffers (a peer computing migrated blocks gets the owner's).
template <typename V>
struct GatherTask {
  V* val = nullptr;
  const V* contrib = nullptr;
  V* next = nullptr;
  double dangling_in = 0;        // mass of all vertices without out-edges, last superstep
  const CsrChunk* in = nullptr;  // the owner's in-edges
  Degrees degree;                // every vertex's out-degree
  const V* received = nullptr;   // per-edge messages: per owned vertex from in->lo, what peers sent it; else null
};

// What a range of vertices adds to the superstep's global sums.
struct GatherSums {
  double l1 = 0, dangling = 0;
  uint64_t edges = 0, migrated = 0, remote_blocks = 0;
  GatherSums& operator+=(const GatherSums& o) {
    l1 += o.l1, dangling += o.dangling, edges += o.edges, migrated += o.migrated, remote_blocks += o.remote_blocks;
    return *this;
  }
};

// Gathers and applies the program over [lo, hi): writes val and next for
// each vertex, adds to `sums`. A monotone program runs in place
// (Gauss-Seidel, t.next == t.contrib), reading a snapshot of its
// in-neighbours' values, since other threads store into them meanwhile.
template <typename P>
void gather_range(const P& prog, const GatherTask<typename P::Value>& t, vid_t lo, vid_t hi, GatherSums& sums) {
  using V = typename P::Value;
  const CsrChunk& in = *t.in;
  // Locals, not members through the task: the compiler cannot always tell
  // that the stores to the values leave them unchanged.
  const vid_t* tgt = in.targets;
  const eid_t* row = in.offsets + (lo - in.lo);  // v's row, walked along with v
  const Degrees degree = t.degree;
  double l1 = 0, dangling = 0;
  [[maybe_unused]] std::vector<V> buf;
  for (vid_t v = lo; v < hi; ++v, ++row) {
    const eid_t first = row[0], count = row[1] - first;
    V value;
    if constexpr (P::kMonotone)
      value = prog.gather(t.val[v], snapshot(t.contrib, tgt + first, count, buf), t.dangling_in);
    else if (t.received)
      value =
          prog.gather(t.val[v], InValuesAnd<V>{{t.contrib, tgt + first, count}, t.received[v - in.lo]}, t.dangling_in);
    else
      value = prog.gather(t.val[v], InValues<V>{t.contrib, tgt + first, count}, t.dangling_in);
    l1 += std::fabs(double(value) - double(t.val[v]));
    t.val[v] = value;
    const eid_t d = degree[v];
    if (d == 0) dangling += double(value);
    if constexpr (P::kMonotone)
      __atomic_store_n(&t.next[v], prog.publish(value, d), __ATOMIC_RELAXED);
    else
      t.next[v] = prog.publish(value, d);
  }
  sums.l1 += l1;
  sums.dangling += dangling;
  sums.edges += in.begin(hi) - in.begin(lo);
}

}  // namespace chatty::cpu
