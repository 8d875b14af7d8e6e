#include "runtime/graph/held_rows.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "runtime/base/memory.h"
#include "runtime/base/status.h"

namespace chatty {

std::pair<void*, std::shared_ptr<const void>> reserve_held(size_t count, size_t bytes, size_t lo, size_t hi) {
  const size_t total = std::max<size_t>(count * bytes, 1);
  // PROT_NONE and MAP_NORESERVE: address space only, no memory committed.
  void* base = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  CHATTY_CHECK(base != MAP_FAILED,
               "cannot reserve " + std::to_string(total) + " bytes of address space for a rank's rows");
  std::shared_ptr<const void> keeper(base, [total](const void* p) { munmap(const_cast<void*>(p), total); });
  if (hi > lo) {
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    const size_t first = lo * bytes / page * page, last = std::min(total, (hi * bytes + page - 1) / page * page);
    check_memory(last - first, "a rank's rows");
    CHATTY_CHECK(mprotect(static_cast<std::byte*>(base) + first, last - first, PROT_READ | PROT_WRITE) == 0,
                 "cannot map " + std::to_string(last - first) + " bytes for a rank's rows");
  }
  return {base, std::move(keeper)};
}

Csr csr_of_rows(Buffer<eid_t> offsets, const Csr& rows, vid_t lo, vid_t hi) {
  const eid_t m = offsets[offsets.size() - 1], first = offsets[lo], last = offsets[hi];
  for (vid_t v = lo; v < hi; ++v)
    CHATTY_CHECK(rows.degree(v) == offsets[v + 1] - offsets[v],
                 "vertex " + std::to_string(v) + ": its held row has " + std::to_string(rows.degree(v)) +
                     " edges, the graph's offsets say " + std::to_string(offsets[v + 1] - offsets[v]) +
                     " (internal error)");
  Csr c;
  auto [targets, tbuf] = reserve_held<vid_t>(m, first, last);
  std::memcpy(targets + first, rows.targets.data() + rows.offsets[lo], (last - first) * sizeof(vid_t));
  c.targets = std::move(tbuf);
  if (!rows.weights.empty()) {
    auto [weights, wbuf] = reserve_held<weight_t>(m, first, last);
    std::memcpy(weights + first, rows.weights.data() + rows.offsets[lo], (last - first) * sizeof(weight_t));
    c.weights = std::move(wbuf);
  }
  c.offsets = std::move(offsets);
  return c;
}

Graph graph_of_rows(Buffer<eid_t> offsets, const Csr& rows, vid_t lo, vid_t hi, bool directed) {
  Graph g(csr_of_rows(std::move(offsets), rows, lo, hi), directed);
  g.hold_rows(lo, hi);
  return g;
}

}  // namespace chatty
