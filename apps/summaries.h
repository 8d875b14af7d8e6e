// Summary lines and counts that several apps report alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/base/json_value.h"
#include "runtime/graph/graph.h"

namespace chatty {

// "reached R of N vertices (P %), max <what> M" and its JSON twin, for
// values where kInfinity means unreached.
std::string reached_text(const std::vector<uint32_t>& values, const char* what);
JsonValue reached_json(const std::vector<uint32_t>& values, const char* what);

// The five highest real values (AppOutput::ranks), best first, ties by
// id: "top <what>s: id (value) ..." and {"top": [{"vertex": id, <what>: value}]}.
struct AppOutput;
std::string top_values_text(const AppOutput& out, const char* what);
JsonValue top_values_json(const AppOutput& out, const char* what);
// The same of any real values by vertex: "top <many>: ..." and the list.
std::string top_values_text(const AppOutput& out, const std::vector<float>& values, const char* many);
JsonValue top_values_list(const AppOutput& out, const std::vector<float>& values, const char* what);

// Every edge once a superstep (a gather's edges: PageRank, k-core, ...).
uint64_t gathered_edges(const AppOutput& out, const Graph& g);

// The edges the run's steps examined, as it recorded them (an operator
// program's: BC, SCC, label propagation, ...).
uint64_t examined_edges(const AppOutput& out, const Graph& g);

// Out-edges of the vertices with a finite value (a traversal's edges).
uint64_t reached_out_edges(const std::vector<uint32_t>& values, const Graph& g);

}  // namespace chatty
