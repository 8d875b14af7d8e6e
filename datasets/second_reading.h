// --validate's second reading of a text graph file: a plain sequential
// parser written from the formats' definitions (datasets/text_formats.h,
// runtime/graph/vertex_ids.h) that shares no code with the loaders' parsers, id
// compaction or graph builder. Only the bytes come through the same
// decompression. Comparing its graph with the loaded one in the input's ids
// catches a misread file, which a reference run on the loaded graph could
// never see: a wrong id scheme, a lost or invented vertex, a dropped line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "datasets/load.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/vertex_ids.h"

namespace chatty {

struct ReadEdge {
  uint64_t u = 0, v = 0;  // the input's ids
  uint64_t w = 0;         // 0 where the file has no weights or they are not kept
  bool operator<(const ReadEdge& o) const { return u != o.u ? u < o.u : v != o.v ? v < o.v : w < o.w; }
};

struct SecondReading {
  std::string format;         // what it read the file as
  std::vector<uint64_t> ids;  // the vertices' input ids, ascending
  // Every edge after the load options: both directions of an undirected
  // graph's edges, self-loops dropped and one copy of parallel edges (the
  // lightest) where the options say so; sorted.
  std::vector<ReadEdge> edges;
  bool directed = true;
  bool weighted = false;  // weights read and kept
};

// Whether `what` is a file the second reading can read: a text file by its
// name or content (not a generator spec, standard input or a .cgr). Says
// why not in *why otherwise.
bool can_read_again(const std::string& what, std::string* why);

// Reads `path` again under the same options. Throws chatty::Error when the
// file does not parse by the format's definition (the loader took it).
SecondReading read_again(const std::string& path, const LoadOptions& opt);

// Each text format's second reading, for the format table (formats.h).
class SecondReader;
void reread_edge_list(SecondReader& r);
void reread_dimacs(SecondReader& r);
void reread_matrix_market(SecondReader& r);
void reread_metis(SecondReader& r);

// "" when g, whose vertex v the input calls ids.of(v), is the graph of the
// reading; else the first difference, naming vertices by the input's ids.
// Weights are compared where the reading kept them.
std::string compare_with_reading(const Graph& g, const VertexIds& ids, const SecondReading& r);

}  // namespace chatty
