// Checks an app's output against the sequential reference: exact for BFS,
// SSSP and WCC (their fixed points are unique), within tolerance for
// PageRank. The message names the first mismatching vertex.
#pragma once

#include <string>
#include <vector>

#include "runtime/engine_options.h"
#include "runtime/graph.h"

namespace chatty {

struct Validation {
  bool ok = false;
  std::string message;  // "PASS ..." or "FAIL: ..."
};

Validation validate_exact(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want, const char* what);
// L1 distance to a double reference run with the same stopping rule; the
// bound allows one extra or missing iteration and float rounding.
Validation validate_pagerank(const std::vector<float>& got, const Graph& g, const EngineOptions& opt);

}  // namespace chatty
