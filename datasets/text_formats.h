// Text graph formats. Each loader validates as it parses and throws
// chatty::Error naming the input and line of the first problem.
//   edge list (.txt .el .wel .edges .snap): "u v [w]" per line, '#'/'%'
//     comments; SNAP's "# Undirected graph" / "# Directed graph" and
//     KONECT's "% sym" / "% asym" headers say the direction (KONECT ids are
//     1-based); without one an edge list is directed.
//   DIMACS (.gr): "p sp N M", "a u v w" (1-based), "c" comments
//   Matrix Market (.mtx): coordinate; general/symmetric; pattern/integer/real
//   METIS (.graph): "n m [fmt [ncon]]", then one line of neighbours per vertex
#pragma once

#include <string>

#include "datasets/load.h"
#include "datasets/text_source.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/vertex_ids.h"

namespace chatty {

// opt.weights == kIgnored parses weights for syntax only and drops them.
Graph load_edge_list(TextSource& src, const LoadOptions& opt, LoadInfo& info);
Graph load_dimacs(TextSource& src, const LoadOptions& opt, LoadInfo& info);
// A "symmetric" matrix gives an undirected graph whatever opt says.
Graph load_matrix_market(TextSource& src, const LoadOptions& opt, LoadInfo& info);
// METIS .graph: undirected when every edge is listed in both of its lines.
Graph load_metis(TextSource& src, const LoadOptions& opt, LoadInfo& info);

// Edge list layouts: GAP's .el (two columns) and .wel (three), positions,
// no header; SNAP's text (.txt .edges .snap: "# Directed graph"/"# Undirected
// graph" and "# Nodes: N Edges: M" header, a weight column when weighted);
// .csv "u,v[,w]" with no header. SNAP text and CSV keep the input's ids.
enum class EdgeListStyle { kGapEl, kGapWel, kSnap, kCsv };

// Writers for `chatty convert` and round-trip tests. An undirected graph is
// written with each edge once (u <= v) under a header that says so (.mtx
// "symmetric"; SNAP's "# Undirected graph" in .txt; the note says what .el,
// .wel and .csv cannot), and in both
// directions in .gr, marked by a comment this reader honours. Each returns
// a note for the user when something of the graph could not be written
// (weights in .el), else "".
std::string write_edge_list(const Graph& g, const std::string& path, EdgeListStyle style, const VertexIds& ids = {});
std::string write_dimacs(const Graph& g, const std::string& path);
std::string write_matrix_market(const Graph& g, const std::string& path);

}  // namespace chatty
