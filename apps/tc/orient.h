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
// How orient treats a file-mapped input's pages.
enum class InputPages {
  kKeep,  // left resident: faster, no page is faulted in twice
  kDrop,  // dropped once read: the input and the lower lists are never
          // resident whole together (host devices' count on kron:20 at
          // P = 1 peaks at 166 MB for a 134 MB .cgr)
};
Oriented orient(const Graph& g, bool by_degree, InputPages pages);

}  // namespace chatty::tc
