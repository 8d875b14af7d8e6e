// Triangle counting as GAP's `tc` counts: ordered, each triangle w < v < u
// once, found by intersecting u's and v's lists below v; on a graph
// relabelled by degree (hubs first) where that pays. One compute over the
// rows on the host operators (the engine's team), each device counting the
// rows of its range;
// the intersection merges short lists (ops::intersect_sorted) and probes
// long ones against a MarkedList.
#pragma once

#include <algorithm>
#include <atomic>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/host/host_operators.h"
#include "runtime/host/operators.h"

namespace chatty::tc {

// Counts on g (sorted lists without repeats: an undirected graph, or its
// orientation, whose lists hold the lower neighbours only) over `ranges`:
// each triangle w < v < u once, at u, by intersecting u's lower neighbours
// with each lower neighbour v's list below v. A hit's count goes to a
// slot of u's list (no atomic per triangle); u, v and the slots reach the
// shared counts once per row and edge. With `old_of_new` (g is a
// relabelling), each count lands at the vertex's old id, so the counts come
// out in the input's order without a second array. `into`: the caller's
// zeroed array of |V| counts to add to (else one is made). `lower_only`:
// every list holds only ids below its vertex (an orientation), so no list
// is searched for where its lower part ends. Returns the counts; h records
// the devices' time and the list entries read.
inline constexpr size_t kMergeBelow = 8;  // lower lists this short are merged, not marked
// Lower neighbours ahead whose lists' first entries are fetched (their
// offsets two further): a neighbour's list starts with a miss, most of a
// short list's time. Measured on 2 cores against none: kron:20 0.90 of the
// time, urand:20 0.50; 2 against 1: kron 0.94; 4 no better. The counts
// fetched too: kron:20 0.80 (relabelled, each count behind an old id).
inline constexpr long kListsAhead = 2;

inline std::vector<uint64_t> count(host::HostOperators& h, const Graph& g, const host::DeviceRanges& ranges,
                                   const vid_t* old_of_new = nullptr, std::vector<uint64_t>* into = nullptr,
                                   bool lower_only = false) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<uint64_t> out;
  if (into) {
    out = std::move(*into);
  } else {
    out.assign(n, 0);
  }
  // Raw pointers, loaded once: the counts' atomic adds would otherwise make
  // the compiler reload the lists' pointers at every step.
  const eid_t* off = c.offsets.data();
  const vid_t* tgt = c.targets.data();
  uint64_t* counts = out.data();
  // Where v's count lands: at its old id after a relabelling.
  auto count_of = [counts, old_of_new](vid_t v) { return counts + (old_of_new ? old_of_new[v] : v); };
  auto add = [count_of](vid_t v, uint64_t k) {
    if (k) std::atomic_ref<uint64_t>(*count_of(v)).fetch_add(k, std::memory_order_relaxed);
  };
  auto row = [&](int, size_t row) -> uint64_t {
    const vid_t u = vid_t(row);
    const vid_t* nu = tgt + off[u];
    const vid_t* row_end = tgt + off[u + 1];
    const vid_t* lower_end = lower_only ? row_end : nu;
    while (lower_end != row_end && *lower_end < u) ++lower_end;
    const size_t len = size_t(lower_end - nu);
    if (len < 2) return len;
    if (len == 2) {  // most rows of a sparse graph: one pair, one scan, no slots
      const vid_t a = nu[0], v = nu[1];
      const vid_t* w = tgt + off[v];
      const vid_t* w_end = tgt + off[v + 1];
      const vid_t* p = w;
      while (p != w_end && *p < a) ++p;
      const bool hit = p != w_end && *p == a;
      if (hit) add(a, 1), add(v, 1), add(u, 1);
      return 2 + uint64_t(p - w) + hit;
    }
    thread_local host::MarkedList marked;
    thread_local std::vector<uint32_t> at_slot;
    // Slots are zero between rows (a row clears those it used), so a row
    // without triangles, most rows of a sparse graph, writes none.
    if (at_slot.size() < len) at_slot.resize(len);
    uint32_t* slot = at_slot.data();
    // A short list is merged with each neighbour's (marking it costs more
    // than it saves); a long one is marked once and probed.
    const bool merge = len <= kMergeBelow;
    if (!merge) marked.mark(nu, len, n);
    uint64_t at_u = 0, read = len;
    for (const vid_t* pv = nu + 1; pv != lower_end; ++pv) {
      const vid_t v = *pv;
      // The next neighbours' lists and counts are anywhere in memory:
      // their offsets (and old ids) fetched ahead, then their lists' first
      // entries and their counts, which the atomic add below would
      // otherwise wait for.
      if (lower_end - pv > kListsAhead + 2) {
        __builtin_prefetch(off + pv[kListsAhead + 2]);
        if (old_of_new) __builtin_prefetch(old_of_new + pv[kListsAhead + 2]);
      }
      if (lower_end - pv > kListsAhead) {
        const vid_t ahead = pv[kListsAhead];
        __builtin_prefetch(tgt + off[ahead]);
        __builtin_prefetch(count_of(ahead), 1);
      }
      uint64_t k = 0;
      const vid_t* w = tgt + off[v];
      const size_t w_len = off[v + 1] - off[v];
      if (merge) {
        read += ops::intersect_sorted(
            nu, size_t(pv - nu), w, w_len, [&](size_t i, size_t) { ++k, ++slot[i]; }, v);
      } else {
        // The part below v found first, so that the probe loop tests
        // nothing but the marks.
        const vid_t* end = lower_only ? w + w_len : std::lower_bound(w, w + w_len, v);
        marked.probe(w, size_t(end - w), [&](vid_t x) { ++k, ++slot[marked.position(x)]; });
        read += uint64_t(end - w);
      }
      add(v, k);
      at_u += k;
    }
    if (!merge) marked.clear();
    if (at_u) {
      add(u, at_u);
      for (size_t i = 0; i < len; ++i)
        if (slot[i]) add(nu[i], slot[i]), slot[i] = 0;
    }
    return read;
  };
  // Rows in grabs of 64 where their work varies by orders (hubs first,
  // after relabelling), of 1024 where it does not, which saves most of a
  // grid's grabs on the shared cursor.
  const size_t grain = old_of_new ? 64 : 1024;
  h.team([&](host::TeamThread& t) { host::compute(t, ranges, row, grain); });
  return out;
}

}  // namespace chatty::tc
