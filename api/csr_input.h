// Graphs from arrays a caller already holds: CSR arrays used in place when
// they are valid and sorted, or edge lists built into a new CSR.
#pragma once

#include <memory>
#include <string>

#include "runtime/graph/graph.h"
#include "runtime/graph/graph_builder.h"

namespace chattygraph::detail {

using chatty::eid_t;
using chatty::vid_t;
using chatty::weight_t;

// A CSR's arrays, borrowed: `keeper` keeps them alive for as long as the
// graph needs them.
struct CsrArrays {
  const eid_t* indptr = nullptr;  // n + 1
  const vid_t* indices = nullptr;
  const weight_t* weights = nullptr;  // or null
  size_t n = 0, m = 0;
  std::shared_ptr<const void> keeper;
};

// Throws chatty::Error (naming the first bad entry) unless indptr starts at
// 0, never decreases and ends at m, and every index is below n.
void check_csr(const CsrArrays& a);
// Whether every row's indices ascend (the engine's order).
bool rows_sorted(const CsrArrays& a);
// Whether every edge (u, v) has its reverse (v, u): an undirected graph's
// CSR. Rows must be sorted.
bool symmetric(const CsrArrays& a);

// The graph over a's arrays: viewed in place when rows are sorted, else
// copied and sorted. `copied` says which.
chatty::Graph graph_from_csr(const CsrArrays& a, bool directed, bool* copied);

}  // namespace chattygraph::detail
