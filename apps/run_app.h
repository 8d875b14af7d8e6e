// The four apps behind one call, for the CLI, benchmarks and tests:
// preparation outside the timed region (weights, in-edges), the timed run,
// validation against the references, and the per-vertex output file.
#pragma once

#include <string>
#include <vector>

#include "apps/validate.h"
#include "runtime/engine_options.h"
#include "runtime/graph.h"
#include "runtime/multi_stats.h"
#include "runtime/partition.h"

namespace chatty {

enum class App { kBfs, kSssp, kPageRank, kWcc };

App parse_app(const std::string& name);  // bfs, sssp, pr (pagerank), wcc (cc)
const char* app_name(App app);

struct AppOutput {
  App app = App::kBfs;
  std::vector<uint32_t> ints;  // BFS depth, SSSP distance, WCC label
  std::vector<float> ranks;    // PageRank
  MultiStats multi;            // what the run did, per superstep (every backend and device count)
  double seconds = 0;          // compute time
  Backend backend = Backend::kCpu;
  std::vector<int> gpu_of;  // cuda: the GPU of every device
};

// Lowest-id vertex with an out-edge (the default BFS/SSSP source).
vid_t default_source(const Graph& g);

// Makes g ready for `app` before timing: SSSP on an unweighted graph gets
// deterministic weights 1..255 from `seed` unless `default_weights` is false
// (then it is an error); pull apps get their in-edges built.
void prepare_graph(App app, Graph& g, bool default_weights, uint64_t seed);
// Only the weights part of prepare_graph (before relabelling a graph: the
// default weights hash the input's ids).
void add_default_weights(App app, Graph& g, bool default_weights, uint64_t seed);

// Runs the app once on part's chunks (made here for opt.devices if not
// given): with opt.backend kCuda on GPU devices (one per chunk), otherwise
// on host devices. Throws chatty::Error for a bad source, an SSSP
// distance that overflows 32 bits, a missing GPU or too little GPU memory.
AppOutput run_app(App app, const Graph& g, vid_t source, const EngineOptions& opt, const Partition* part = nullptr);

// The output of a run on a relabelled graph (old_of_new[new id] = input
// id) in the input's ids: values moved to their input vertex, and WCC's
// labels (component minima) recomputed as minima of input ids.
AppOutput in_input_ids(AppOutput out, const std::vector<vid_t>& old_of_new);

// Checks out against the sequential reference on g; with a relabelled run,
// pass in_input_ids(out) and the input graph, so that the relabelling is
// checked too and messages name input ids.
Validation validate_app(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions& opt);

// Edges the run traversed, for GTEPS: out-edges of reached vertices (BFS,
// SSSP), all edges (WCC), all edges per iteration (PageRank).
uint64_t traversed_edges(const AppOutput& out, const Graph& g);

// One line per vertex, "id value", in id order: `inf` for unreached, ranks
// with 9 significant digits.
void write_values(const AppOutput& out, const std::string& path);

}  // namespace chatty
