// Text graph formats. Each loader validates as it parses and throws
// chatty::Error naming the file and line of the first problem.
//   edge list (.txt .el .wel .edges .snap): "u v [w]" per line, '#'/'%' comments
//   DIMACS (.gr): "p sp N M", "a u v w" (1-based), "c" comments
//   Matrix Market (.mtx): coordinate; general/symmetric; pattern/integer/real
#pragma once

#include <string>

#include "runtime/graph.h"
#include "runtime/graph_builder.h"

namespace chatty {

Graph load_edge_list(const std::string& path, const BuildOptions& opt);
Graph load_dimacs(const std::string& path, const BuildOptions& opt);
// A "symmetric" matrix gives an undirected graph whatever opt.symmetrize says.
Graph load_matrix_market(const std::string& path, const BuildOptions& opt);

// Writers for `chatty convert` and round-trip tests. An undirected graph is
// written with each edge once (u <= v) in .mtx ("symmetric") and in both
// directions elsewhere, as those formats have no way to say "undirected".
void write_edge_list(const Graph& g, const std::string& path);
void write_dimacs(const Graph& g, const std::string& path);
void write_matrix_market(const Graph& g, const std::string& path);

}  // namespace chatty
