// A graph of which this process holds some rows only: a rank of the
// cluster layer keeps the edges of its own vertices and every vertex's
// degree, nothing more. The edge arrays keep their global positions
// (offsets stay the whole graph's, so degrees, edge counts and chunk views
// are the same as in a whole graph), but only the held rows' part of the
// address range is backed by memory; another row's edges are never mapped
// and reading them faults instead of returning a wrong answer.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

#include "runtime/base/buffer.h"
#include "runtime/graph/graph.h"

namespace chatty {

// Address space for `count` elements of `bytes` each, of which only the
// elements [lo, hi) (widened to whole pages) are readable and writable.
// Returns where to write them and what keeps the mapping (unmapped when
// the last holder goes). Throws chatty::Error when the address space
// cannot be reserved.
std::pair<void*, std::shared_ptr<const void>> reserve_held(size_t count, size_t bytes, size_t lo, size_t hi);

// The same as a read-only Buffer of all `count` elements.
template <typename T>
std::pair<T*, Buffer<T>> reserve_held(size_t count, size_t lo, size_t hi) {
  auto [raw, keeper] = reserve_held(count, sizeof(T), lo, hi);
  T* data = static_cast<T*>(raw);
  return {data, Buffer<T>(data, count, std::move(keeper))};
}

// The CSR whose rows [lo, hi) are `rows`' rows [lo, hi) and whose offsets
// are `offsets`, with only those rows backed. Throws chatty::Error when a
// held row's degree differs from what `offsets` says.
Csr csr_of_rows(Buffer<eid_t> offsets, const Csr& rows, vid_t lo, vid_t hi);

// The graph whose rows [lo, hi) are `rows`' rows [lo, hi) and whose
// offsets are `offsets` (every vertex's, as in the whole graph), marked as
// holding those rows only.
Graph graph_of_rows(Buffer<eid_t> offsets, const Csr& rows, vid_t lo, vid_t hi, bool directed);

}  // namespace chatty
