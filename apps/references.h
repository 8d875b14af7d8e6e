// Sequential reference implementations, independent of the engine: they
// share no code with it beyond the graph, so `--validate` and the tests
// check the engine against a second, obviously-correct computation.
#pragma once

#include <vector>

#include "runtime/graph.h"

namespace chatty::reference {

std::vector<uint32_t> bfs(const Graph& g, vid_t source);   // queue BFS
std::vector<uint32_t> sssp(const Graph& g, vid_t source);  // binary-heap Dijkstra
std::vector<uint32_t> wcc(const Graph& g);                 // sequential union-find
// Power iteration in double with the same stopping rule as the engine.
std::vector<double> pagerank(const Graph& g, double damping, double tolerance, int max_iters);

}  // namespace chatty::reference
