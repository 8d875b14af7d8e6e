// The one front door for graphs: a file, a pipe or standard input ("-"), or
// a generator spec, with the build options applied. The format is read from
// the content where it says itself (Matrix Market banner, DIMACS problem
// line, .cgr magic, gzip/zstd/bzip2 magic), else from --format or the
// extension.
#pragma once

#include <cstdint>
#include <string>

#include "datasets/formats.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/graph_builder.h"
#include "runtime/graph/vertex_ids.h"

namespace chatty {

// Whether the caller uses edge weights. Ignored weights are checked for
// syntax only (any number, negative or fractional) and dropped, so BFS, WCC
// and PageRank run on files whose weights SSSP would refuse.
enum class WeightUse { kNeeded, kIgnored };

// --ids: how an edge list's ids name its vertices (runtime/graph/vertex_ids.h).
// auto: positions for GAP's .el/.wel and files that start with a vertex
// count, the ids that occur for every other edge list (SNAP, KONECT, plain
// text). DIMACS, Matrix Market and METIS are 1-based by their format.
enum class IdChoice { kAuto, kPositions, kOccurring };
IdChoice parse_id_choice(const std::string& s);

struct LoadOptions {
  Format format = nullptr;  // auto
  BuildOptions build;
  WeightUse weights = WeightUse::kNeeded;
  uint64_t seed = 1;  // generators
  IdChoice ids = IdChoice::kAuto;
};

// What loading found, for the graph line of `chatty run` and `--json`.
struct LoadInfo {
  std::string format;       // "edge list", "Matrix Market", "DIMACS", "cgr", "generator"
  std::string compression;  // "", "gzip", "zstd" or "bzip2"
  // Why the graph is directed or undirected, e.g. "the file's '# Undirected
  // graph' header", "--symmetrize", "Matrix Market 'symmetric'".
  std::string direction_reason;
  bool weights_dropped = false;  // the file had weights the app does not use
  VertexIds ids;                 // the input's ids of the graph's vertices
};

// Parses a --format value: auto (null) or a name of the format table
// (datasets/formats.h); throws chatty::Error listing them.
// With auto, content that names its format (a Matrix Market banner, a
// DIMACS problem line, the .cgr magic) wins over the extension; a named
// format the content contradicts is an error.
Format parse_format(const std::string& name);
// The format a path implies; throws chatty::Error for unknown extensions.
Format format_of_path(const std::string& path);

// Loads `what` (file path, "-" for standard input, or kron:/urand:/grid:
// spec). Throws chatty::Error with a message naming the input on any
// problem, including an empty graph. Fills *info when given.
Graph load_graph(const std::string& what, const LoadOptions& opt, LoadInfo* info = nullptr);

// Writes g in the format its extension names (or `format`): .el two
// columns, .wel three (GAP), .txt/.edges/.snap SNAP text with a header.
// Returns a note for the user when part of g could not be written (the
// weights in .el), else "".
// Edge lists and .cgr keep the input's ids `ids`; DIMACS and Matrix Market
// number vertices 1..n (the note says so where that renumbers them).
std::string save_graph(const Graph& g, const std::string& path, Format format = nullptr, const VertexIds& ids = {});

// The same graph with every edge also reversed (undirected).
Graph symmetrized(const Graph& g);

}  // namespace chatty
