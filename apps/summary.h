// What a person wants to see of a result, beside the timings: how much of
// the graph a traversal reached and how far, how the graph falls into
// components, which vertices rank highest.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "apps/run_app.h"

namespace chatty {

struct ResultSummary {
  uint64_t vertices = 0;
  uint64_t reached = 0;                      // BFS, SSSP: vertices with a finite value
  uint32_t max_value = 0;                    // BFS: max depth; SSSP: max distance
  uint64_t components = 0, largest = 0;      // WCC
  std::vector<std::pair<vid_t, float>> top;  // PageRank: the 5 highest, best first
};

// `out` in input ids (in_input_ids), so vertices named are the input's.
ResultSummary summarize(const AppOutput& out);

}  // namespace chatty
