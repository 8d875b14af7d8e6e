// A run's statistics as values: what `chatty run` prints and its --json
// object holds, for a program that links the library (the object has
// these and more: the exchange, per device and per rank figures).
// Standard headers only: the library's public header includes this one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace chatty::job {

struct RunStats {
  std::string app;      // its registry name
  std::string graph;    // a path, a generator spec, or what made a graph in memory
  std::string backend;  // "cpu", "cuda", "cpu (auto): ..." as chosen
  uint64_t vertices = 0;
  uint64_t edges = 0;  // stored: an undirected edge counts twice
  bool directed = false, weighted = false;
  int devices = 1, threads = 1, ranks = 1;
  std::optional<uint64_t> source;           // the input id the run started from (apps with one source)
  std::vector<uint64_t> sources;            // several sources' input ids (--sources)
  std::vector<double> source_seconds;       // each source's compute time
  double load_seconds = 0;                  // loading and preparing, outside the timed run
  double compute_seconds = 0;               // the median over --repeat runs (or over sources)
  std::vector<double> compute_seconds_all;  // every timed run
  int iterations = 0;                       // supersteps of the last run
  uint64_t edges_traversed = 0;             // what GTEPS counts
  uint64_t edges_examined = 0;              // every edge a superstep looked at
  double gteps = 0;
  bool converged = true;              // a gather (PageRank) met its tolerance
  double last_change = 0;             // where it did not: the last superstep's change
  std::string validated = "skipped";  // "pass", "fail" (--validate) or "skipped"
  std::string validation;             // what --validate said
};

}  // namespace chatty::job
