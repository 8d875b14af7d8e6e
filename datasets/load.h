// The one front door for graphs: a file (format from its extension or
// --format) or a generator spec, with the build options applied.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/graph.h"
#include "runtime/graph_builder.h"

namespace chatty {

enum class Format { kAuto, kEdgeList, kDimacs, kMatrixMarket, kCgr };

struct LoadOptions {
  Format format = Format::kAuto;
  BuildOptions build;
  uint64_t seed = 1;  // generators
};

// Parses a --format value: auto, el (also txt, snap, edges, wel), gr, mtx, cgr.
Format parse_format(const std::string& name);
// The format a path implies; throws chatty::Error for unknown extensions.
Format format_of_path(const std::string& path);

// Loads `what` (file path or kron:/urand:/grid: spec). Throws chatty::Error
// with a message naming the input on any problem, including an empty graph.
Graph load_graph(const std::string& what, const LoadOptions& opt);

// Writes g in the format its extension names (or `format`).
void save_graph(const Graph& g, const std::string& path, Format format = Format::kAuto);

// The same graph with every edge also reversed (undirected).
Graph symmetrized(const Graph& g);

}  // namespace chatty
