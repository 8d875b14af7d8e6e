// Every app, registered once (apps/registry.cc): `run`, `--validate`,
// `--output`, the summaries and the benchmarks find an app's program,
// reference, verifier and report here. An app lives in apps/<name>/; adding
// one is its folder plus a line in the enum and one in the table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apps/validate.h"
#include "runtime/base/engine_options.h"
#include "runtime/base/json_value.h"
#include "runtime/engine/exchange_policy.h"
#include "runtime/engine/multi_stats.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/partition.h"
#include "runtime/graph/vertex_ids.h"

namespace chatty {

enum class App { kBfs, kSssp, kPageRank, kWcc, kKcore, kTc, kBc };

// Where an app's per-vertex results are: AppOutput::ints, ::ranks or ::counts.
enum class Values { kInts, kReals, kCounts };

struct AppOutput {
  App app = App::kBfs;
  std::vector<uint32_t> ints;    // integral values (depth, distance, label, coreness)
  std::vector<float> ranks;      // real values (PageRank, BC)
  std::vector<uint64_t> counts;  // 64-bit counts (triangles per vertex)
  MultiStats multi;              // what the run did, per superstep (every backend and device count)
  std::vector<vid_t> sources;    // the sources of an app that runs from all at once (BC)
  double seconds = 0;            // compute time
  Backend backend = Backend::kCpu;
  std::vector<int> gpu_of;  // cuda: the GPU of every device
  // The input's ids of the vertices, for what is shown to the user
  // (summaries, --output); positions where unset.
  const VertexIds* ids = nullptr;
  uint64_t id_of(vid_t v) const { return ids ? ids->of(v) : uint64_t(v); }
};

// What one run of an app is given; `part` has one chunk per device.
struct AppRun {
  const Graph& g;
  vid_t source;
  const EngineOptions& opt;
  const Partition& part;
  const std::vector<vid_t>* sources = nullptr;  // sources_at_once: every source (else just `source`)
};

// An app's entry. Hooks marked optional may be null.
struct AppSpec {
  App id;
  const char* name;      // as --app takes it and reports show it
  const char* alias;     // a second name --app accepts, or ""
  const char* about;     // one line for --help
  bool needs_source;     // --source and --sources apply
  bool sources_at_once;  // one run from all the sources (BC sums over them), not one run per source
  bool needs_weights;    // edge weights are read (default ones made if absent)
  bool needs_in_edges;   // built before the timed run
  bool reorders;         // --reorder=auto relabels by degree
  // Ranks each hold the whole graph and take a share of the work (rows or
  // sources), the per-vertex results summed over the ranks; otherwise a
  // rank holds its chunks' rows and exchanges boundary values.
  bool whole_graph;
  Values values;          // which of AppOutput's arrays holds the results
  MessageShape messages;  // message_shape<Program>(): who reads a vertex, whether --messages=per_edge applies
  // Refuses, with one line, a graph or options the app cannot run on (optional).
  void (*check)(const Graph& g, const EngineOptions& opt);
  // On host devices; an app whose values are kCounts finds out.counts made,
  // |V| zeros (run_app makes it before the timed run).
  void (*run_host)(const AppRun& r, AppOutput& out);
  void (*run_gpu)(const AppRun& r, AppOutput& out);  // null in builds without CUDA
  // Invariants in GAP's manner, then the sequential reference.
  Validation (*validate)(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions& opt);
  // Values that name vertices, remapped to input ids (optional; --output
  // shows such values in the input's ids too).
  void (*relabel)(AppOutput& out, const std::vector<vid_t>& old_of_new);
  uint64_t (*traversed_edges)(const AppOutput& out, const Graph& g);  // for GTEPS
  std::string (*summary_text)(const AppOutput& out);                  // `out` in input ids
  JsonValue (*summary_json)(const AppOutput& out);                    // one JSON object
};

const AppSpec& app_spec(App app);
const std::vector<App>& all_apps();
App parse_app(const std::string& name);  // a name or alias; throws chatty::Error listing them
const char* app_name(App app);
std::string app_names();  // "bfs, sssp, ..." for help and errors

}  // namespace chatty

// An app's GPU entry, or null where the build has no CUDA backend.
#if defined(CHATTY_HAVE_CUDA)
#define CHATTY_GPU_ENTRY(f) &f
#else
#define CHATTY_GPU_ENTRY(f) nullptr
#endif
