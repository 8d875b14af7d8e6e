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
#include "runtime/base/huge_pages.h"
#include "runtime/base/parallel.h"
#include "runtime/base/program.h"

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
    resize_on_huge_pages(s.storage, second + n);
    place = s.storage.data();
  }
  if (!next_place) next_place = place + second;
  s.contrib = place;
  s.next_contrib = next_place;
  double dangling = 0;
#pragma omp parallel for schedule(static) reduction(+ : dangling)
  for (vid_t v = 0; v < n; ++v) {
    const eid_t d = degree[v];
    dangling += prog.sink(val[v], d);
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
  // Per-edge messages: per owned vertex from in->lo, the sum of what peers
  // sent it (in double: a hub's messages are many); else null.
  const double* received = nullptr;
  // Rows whose short lengths vary from vertex to vertex: summed without a
  // branch on their length (InValuesOfVaryingRows; the rule:
  // runtime/host/sum_layout.h).
  bool varying_rows = false;
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

namespace detail {

// What a vertex's gather reads: fixed for a whole range, so that the loop
// tests nothing per vertex beyond its row.
enum class GatherInput { kValues, kValuesOfVaryingRows, kValuesAndReceived, kSnapshot };

template <GatherInput kIn, typename P>
void gather_rows(const P& prog, const GatherTask<typename P::Value>& t, vid_t lo, vid_t hi, GatherSums& sums) {
  using V = typename P::Value;
  const CsrChunk& in = *t.in;
  // Locals, not members through the task: the compiler cannot always tell
  // that the stores to the values leave them unchanged, and every register
  // a reload or spill takes shows in a loop this thin (a grid's rows are 4
  // edges).
  // All indexed by i = v - lo.
  const vid_t* const tgt = in.targets;
  const eid_t* const row = in.offsets + (lo - in.lo);  // i's in-edges: [row[i], row[i + 1])
  const eid_t* const deg = t.degree.offsets + lo;      // i's out-degree: deg[i + 1] - deg[i]
  const V* const contrib = t.contrib;
  V* const val = t.val + lo;
  V* const next = t.next + lo;
  [[maybe_unused]] const double* received = nullptr;
  if constexpr (kIn == GatherInput::kValuesAndReceived) received = t.received + (lo - in.lo);
  const double dangling_in = t.dangling_in;
  const size_t m = hi - lo;
  double l1 = 0, dangling = 0;
  [[maybe_unused]] std::vector<V> buf;
  for (size_t i = 0; i < m; ++i) {
    const eid_t first = row[i], count = row[i + 1] - first;
    V value;
    if constexpr (kIn == GatherInput::kSnapshot)
      value = prog.gather(val[i], snapshot(contrib, tgt + first, count, buf), dangling_in);
    else if constexpr (kIn == GatherInput::kValuesAndReceived)
      value = prog.gather(val[i], InValuesAnd<V>{{contrib, tgt + first, count}, V(received[i])}, dangling_in);
    else if constexpr (kIn == GatherInput::kValuesOfVaryingRows)
      value = prog.gather(val[i], InValuesOfVaryingRows<V>{{contrib, tgt + first, count}}, dangling_in);
    else
      value = prog.gather(val[i], InValues<V>{contrib, tgt + first, count}, dangling_in);
    l1 += std::fabs(double(value) - double(val[i]));
    val[i] = value;
    const eid_t d = deg[i + 1] - deg[i];
    dangling += prog.sink(value, d);
    if constexpr (kIn == GatherInput::kSnapshot)
      __atomic_store_n(&next[i], prog.publish(value, d), __ATOMIC_RELAXED);
    else
      next[i] = prog.publish(value, d);
  }
  sums.l1 += l1;
  sums.dangling += dangling;
  sums.edges += in.begin(hi) - in.begin(lo);
}

}  // namespace detail

// Gathers and applies the program over [lo, hi): writes val and next for
// each vertex, adds to `sums`. A monotone program runs in place
// (Gauss-Seidel, t.next == t.contrib), reading a snapshot of its
// in-neighbours' values, since other threads store into them meanwhile.
template <typename P>
void gather_range(const P& prog, const GatherTask<typename P::Value>& t, vid_t lo, vid_t hi, GatherSums& sums) {
  using detail::GatherInput;
  if constexpr (P::kMonotone)
    detail::gather_rows<GatherInput::kSnapshot>(prog, t, lo, hi, sums);
  else if (t.received)
    detail::gather_rows<GatherInput::kValuesAndReceived>(prog, t, lo, hi, sums);
  else if (t.varying_rows)
    detail::gather_rows<GatherInput::kValuesOfVaryingRows>(prog, t, lo, hi, sums);
  else
    detail::gather_rows<GatherInput::kValues>(prog, t, lo, hi, sums);
}

}  // namespace chatty::cpu
