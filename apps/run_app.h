// Any registered app behind one call, for the CLI, benchmarks and tests:
// preparation outside the timed region (weights, in-edges), the timed run,
// validation, and the per-vertex output file.
#pragma once

#include <string>
#include <vector>

#include "apps/registry.h"

namespace chatty {

// Lowest-id vertex with an out-edge (the default BFS/SSSP source).
vid_t default_source(const Graph& g);

// Makes g ready for `app` before timing: an app that reads weights gets
// deterministic weights 1..255 from `seed` on an unweighted graph unless
// `default_weights` is false (then it is an error); pull apps get their
// in-edges built.
void prepare_graph(App app, Graph& g, bool default_weights, uint64_t seed);
// Only the weights part of prepare_graph (before relabelling a graph: the
// default weights hash the input's ids).
// Returns whether it made them (the app needs weights the graph lacked).
bool add_default_weights(App app, Graph& g, bool default_weights, uint64_t seed);

// Runs the app once on part's chunks (made here for opt.devices if not
// given): with opt.backend kCuda on GPU devices (one per chunk), otherwise
// on host devices. Throws chatty::Error for a bad source, a graph the app
// refuses, an SSSP distance that overflows 32 bits, a missing GPU or too
// little GPU memory.
AppOutput run_app(App app, const Graph& g, vid_t source, const EngineOptions& opt, const Partition* part = nullptr);
// An app that runs from all its sources at once (BC): one run from every
// one of `sources`.
AppOutput run_app(App app, const Graph& g, const std::vector<vid_t>& sources, const EngineOptions& opt,
                  const Partition* part = nullptr);

// A per-pair app (AppSpec::per_pair) on the pairs `query` names.
AppOutput run_app(App app, const Graph& g, const PairQuery& query, const EngineOptions& opt,
                  const Partition* part = nullptr);

// The output of a run on a relabelled graph (old_of_new[new id] = input
// id) in the input's ids: values moved to their input vertex, and values
// that name vertices (WCC's labels) remapped.
AppOutput in_input_ids(AppOutput out, const std::vector<vid_t>& old_of_new);

// Checks out by the app's verifier on g; with a relabelled run, pass
// in_input_ids(out) and the input graph, so that the relabelling is checked
// too and messages name input ids.
Validation validate_app(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions& opt);

// Edges the run traversed, for GTEPS (each app says which count).
uint64_t traversed_edges(const AppOutput& out, const Graph& g);

// One line per vertex, "id value", in id order: `inf` for unreached, reals
// with 9 significant digits; a per-pair app's one line per pair, "u v value".
void write_values(const AppOutput& out, const std::string& path);

}  // namespace chatty
