// Every app, registered once: `run`, `--validate`, `--output`, the
// summaries, the help, the Python functions, the NetworkX backend and the
// benchmarks find an app's program, reference, verifier and report in its
// entry. An app lives in apps/<folder>/ and its app.cc defines the entry
// `const AppSpec app_<folder>` (designated initializers; what it leaves out
// takes the defaults below); the build lists every folder that has an
// app.cc (apps/registry.cc), so adding an app is its folder alone.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "apps/validate.h"
#include "runtime/base/engine_options.h"
#include "runtime/base/json_value.h"
#include "runtime/engine/exchange_policy.h"
#include "runtime/engine/multi_stats.h"
#include "runtime/engine/ranks.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/partition.h"
#include "runtime/graph/vertex_ids.h"

namespace chatty {

struct AppSpec;
// An app: its registry entry (null where none is chosen).
using App = const AppSpec*;

// Where an app's results are: AppOutput::ints, ::ranks or ::counts per
// vertex; an app whose values are per pair (AppSpec::per_pair) has them in
// ::ints or ::scores, one per pair of AppOutput::pairs.
enum class Values { kInts, kReals, kCounts };

using VertexPair = std::pair<vid_t, vid_t>;

// The pairs a per-pair app scores: those given, or (none given) the K most
// similar vertices of each of `of` (every vertex where `of` is empty) when
// top_k > 0, else every edge once (u < v).
struct PairQuery {
  std::vector<VertexPair> pairs;
  std::vector<vid_t> of;
  uint32_t top_k = 0;
};

struct AppOutput {
  App app = nullptr;
  std::vector<uint32_t> ints;  // integral values (depth, distance, label, coreness)
  // Louvain, Leiden with EngineOptions::keep_levels: the communities of
  // every level (labels as in `ints`), the last equal to `ints`.
  std::vector<std::vector<uint32_t>> levels;
  std::vector<float> ranks;      // real values (PageRank, BC)
  std::vector<float> second;     // a second real per vertex, where the app names one (AppSpec::second)
  std::vector<uint64_t> counts;  // 64-bit counts (triangles per vertex)
  // A per-pair app's pairs, and its real values (double: Jaccard's as
  // NetworkX computes it) or, in `ints`, its whole ones (truss numbers).
  std::vector<VertexPair> pairs;
  std::vector<double> scores;
  MultiStats multi;            // what the run did, per superstep (every backend and device count)
  std::vector<vid_t> sources;  // the sources of an app that runs from all at once (BC)
  // What a run found besides its per-vertex values, by name (Louvain's
  // modularity and levels); empty where the run computed none (under
  // ranks, the ranks that did not compute them).
  std::vector<std::pair<std::string, double>> figures;
  double seconds = 0;  // compute time
  Backend backend = Backend::kCpu;
  std::vector<int> gpu_of;  // cuda: the GPU of every device
  // The input's ids of the vertices, for what is shown to the user
  // (summaries, --output); positions where unset.
  const VertexIds* ids = nullptr;
  uint64_t id_of(vid_t v) const { return ids ? ids->of(v) : uint64_t(v); }
  // The figure of that name, or NaN where the run has none.
  double figure(const std::string& name) const {
    for (const auto& [key, value] : figures)
      if (key == name) return value;
    return std::numeric_limits<double>::quiet_NaN();
  }
  // The sources the run started from: `sources`, or the one it was given.
  std::vector<vid_t> sources_or(vid_t source) const { return sources.empty() ? std::vector<vid_t>{source} : sources; }
};

// What one run of an app is given; `part` has one chunk per device.
struct AppRun {
  const Graph& g;
  vid_t source;
  const EngineOptions& opt;
  const Partition& part;
  const std::vector<vid_t>* sources = nullptr;  // sources_at_once: every source (else just `source`)
  Ranks& ranks = one_process();                 // the ranks the run spans
  const PairQuery* query = nullptr;             // per_pair apps: which pairs (null: every edge)

  // The run's sources: its list (sources_at_once), or its one source.
  std::span<const vid_t> all_sources() const {
    return sources ? std::span<const vid_t>(*sources) : std::span<const vid_t>(&source, 1);
  }
};

// An app's entry. Hooks marked optional may be null.
struct AppSpec {
  const char* name = "";   // as --app takes it and reports show it
  const char* alias = "";  // a second name --app accepts, or ""
  const char* about = "";  // one line for --help
  // The Python function (chattygraph.<python_name>) and its docstring; its
  // parameters follow from needs_source and sources_at_once.
  const char* python_name = "";
  const char* python_doc = "";
  // The NetworkX functions the backend answers with this app,
  // space-separated (each has an adapter in python/chattygraph/nx_backend.py).
  const char* networkx = "";
  bool needs_source = false;     // --source and --sources apply
  bool sources_at_once = false;  // one run from all the sources (BC sums over them), not one run per source
  bool needs_weights = false;    // edge weights are read (default ones made if absent)
  bool reads_weights = false;    // the input's edge weights are read where it has them (none made)
  bool needs_in_edges = false;   // built before the timed run
  bool reorders = false;         // --reorder=auto relabels by degree
  // Ranks each hold the whole graph and take a share of the work (rows or
  // sources), the per-vertex results summed over the ranks; otherwise a
  // rank holds its chunks' rows and exchanges boundary values.
  bool whole_graph = false;
  Values values = Values::kInts;  // which of AppOutput's arrays holds the results
  // A second real per vertex in AppOutput::second, beside the reals, and
  // its name as --output's third column and Python's attribute show it
  // (HITS: the authority beside the hub), or null.
  const char* second = nullptr;
  // The values are per pair of vertices (AppOutput::pairs), not per vertex:
  // --output writes "u v value", Python's Result has `pairs`.
  bool per_pair = false;
  bool takes_pairs = false;    // --pairs, --top_k and --similar_to choose the pairs (else every edge)
  bool unreached = false;      // kInfinity in `ints` marks a vertex the run did not reach
  bool python_double = false;  // Python gets the reals as float64 (NetworkX's type for it)
  MessageShape messages{};     // message_shape<Program>(): who reads a vertex, whether --messages=per_edge applies
  // Refuses, with one line, a graph or options the app cannot run on (optional).
  void (*check)(const Graph& g, const EngineOptions& opt) = nullptr;
  // On host devices; an app whose values are kCounts finds out.counts made,
  // |V| zeros (run_app makes it before the timed run).
  void (*run_host)(const AppRun& r, AppOutput& out) = nullptr;
  void (*run_gpu)(const AppRun& r, AppOutput& out) = nullptr;  // null in builds without CUDA
  // Invariants in GAP's manner, then the sequential reference.
  Validation (*validate)(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions& opt) = nullptr;
  // Values that name vertices, remapped to input ids (optional; --output
  // shows such values in the input's ids too).
  void (*relabel)(AppOutput& out, const std::vector<vid_t>& old_of_new) = nullptr;
  uint64_t (*traversed_edges)(const AppOutput& out, const Graph& g) = nullptr;  // for GTEPS
  std::string (*summary_text)(const AppOutput& out) = nullptr;                  // `out` in input ids
  JsonValue (*summary_json)(const AppOutput& out) = nullptr;                    // one JSON object
};

inline const AppSpec& app_spec(App app) { return *app; }
const std::vector<App>& all_apps();      // in the order of their folders
App parse_app(const std::string& name);  // a name or alias; throws chatty::Error listing them
inline const char* app_name(App app) { return app->name; }
std::string app_names();  // "bfs, sssp, ..." for help and errors

}  // namespace chatty

// An app's GPU entry, or null where the build has no CUDA backend.
#if defined(CHATTY_HAVE_CUDA)
#define CHATTY_GPU_ENTRY(f) &f
#else
#define CHATTY_GPU_ENTRY(f) nullptr
#endif
