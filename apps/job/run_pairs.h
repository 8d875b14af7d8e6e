// --pairs, --top_k and --similar_to: which pairs of vertices a per-pair app
// (similarity) scores. Read and checked with the other options, before
// anything is loaded; named in the run's numbering once the graph is.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "apps/job/run_options.h"
#include "apps/registry.h"

namespace chatty::job {

struct Prepared;

// What the user asked for, in the input's ids.
struct PairRequest {
  std::vector<std::pair<uint64_t, uint64_t>> pairs;  // --pairs; empty: every edge (or the top K)
  std::vector<uint64_t> similar_to;                  // --similar_to; empty: every vertex
  uint32_t top_k = 0;
};

// Throws chatty::Error naming the flag for a malformed list, an unreadable
// or malformed file (with its line), the flags given to an app that takes
// no pairs, or --pairs with --top_k.
PairRequest parse_pair_request(const RunOptions& f, App app);

// The request in the run's numbering; throws chatty::Error naming an id
// that is not one of the graph's.
PairQuery resolve_pairs(const PairRequest& r, const Prepared& p);

}  // namespace chatty::job
