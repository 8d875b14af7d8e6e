#include "api/csr_input.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "runtime/base/status.h"

namespace chattygraph::detail {

using namespace chatty;

void check_csr(const CsrArrays& a) {
  CHATTY_CHECK(a.indptr[0] == 0, "indptr[0] is " + std::to_string(a.indptr[0]) + ", not 0");
  CHATTY_CHECK(a.indptr[a.n] == a.m,
               "indptr[n] is " + std::to_string(a.indptr[a.n]) + " but there are " + std::to_string(a.m) + " indices");
  std::atomic<size_t> bad_row{a.n}, bad_edge{a.m};
#pragma omp parallel for schedule(dynamic, 4096)
  for (size_t v = 0; v < a.n; ++v) {
    if (a.indptr[v + 1] < a.indptr[v] || a.indptr[v + 1] > a.m) {
      bad_row.store(v);
      continue;
    }
    for (eid_t e = a.indptr[v]; e < a.indptr[v + 1]; ++e)
      if (a.indices[e] >= a.n) bad_edge.store(e);
  }
  CHATTY_CHECK(bad_row.load() == a.n, "indptr decreases or passes the end at row " + std::to_string(bad_row.load()));
  CHATTY_CHECK(bad_edge.load() == a.m, "index " + std::to_string(a.indices[std::min(bad_edge.load(), a.m - 1)]) +
                                           " at position " + std::to_string(bad_edge.load()) +
                                           " is not a vertex of a graph of " + std::to_string(a.n));
}

bool rows_sorted(const CsrArrays& a) {
  std::atomic<bool> sorted{true};
#pragma omp parallel for schedule(dynamic, 4096)
  for (size_t v = 0; v < a.n; ++v)
    if (!std::is_sorted(a.indices + a.indptr[v], a.indices + a.indptr[v + 1])) sorted.store(false);
  return sorted.load();
}

bool symmetric(const CsrArrays& a) {
  std::atomic<bool> yes{true};
#pragma omp parallel for schedule(dynamic, 1024)
  for (size_t u = 0; u < a.n; ++u) {
    for (eid_t e = a.indptr[u]; e < a.indptr[u + 1] && yes.load(std::memory_order_relaxed); ++e) {
      const vid_t v = a.indices[e];
      if (!std::binary_search(a.indices + a.indptr[v], a.indices + a.indptr[v + 1], vid_t(u))) yes.store(false);
    }
  }
  return yes.load();
}

namespace {

template <typename T>
Buffer<T> copy_of(const T* p, size_t n) {
  Buffer<T> b(n);
  if (n) std::memcpy(b.mutable_data(), p, n * sizeof(T));
  return b;
}

}  // namespace

Graph graph_from_csr(const CsrArrays& a, bool directed, bool* copied) {
  Csr c;
  *copied = !rows_sorted(a);
  if (*copied) {
    c.offsets = copy_of(a.indptr, a.n + 1);
    c.targets = copy_of(a.indices, a.m);
    if (a.weights) c.weights = copy_of(a.weights, a.m);
    sort_neighbor_lists(c);
  } else {
    c.offsets = Buffer<eid_t>(a.indptr, a.n + 1, a.keeper);
    c.targets = Buffer<vid_t>(a.indices, a.m, a.keeper);
    if (a.weights) c.weights = Buffer<weight_t>(a.weights, a.m, a.keeper);
  }
  return Graph(std::move(c), directed);
}

}  // namespace chattygraph::detail
