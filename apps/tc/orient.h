// The lists triangle counting reads: each vertex's neighbours below it,
// on the graph relabelled by degree (hubs first) where that pays (GAP's
// rule). The host devices count on the full lists of an unrelabelled
// graph; GPU devices always count on these lower lists.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty::tc {

// GAP's test: relabel when the graph is large enough and its degrees
// skewed (the mean well above the median of a sample).
bool worth_relabelling(const Graph& g);

// Vertex x lists the x' < x of its neighbours, ascending: counting on it
// is counting on g (relabelled when by_degree: x is the x-th vertex by
// descending degree), from half the edges and no second full CSR.
// old_of_new[x] is x's vertex in g (empty when not relabelled).
struct Oriented {
  Graph graph;
  std::vector<vid_t> old_of_new;
};
Oriented orient(const Graph& g, bool by_degree);

}  // namespace chatty::tc
