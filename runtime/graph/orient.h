// The lower lists of an undirected graph: each vertex's neighbours below
// it, on the graph relabelled by degree (hubs first) where that pays
// (GAP's rule). Counting triangles (and any intersection over ordered
// triples) on them reads each triangle once, from half the edges.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty {

// GAP's test: relabel when the graph is large enough and its degrees
// skewed (the mean well above the median of a sample).
bool skewed_degrees(const Graph& g);

// A vertex whose list holds a neighbour twice (a parallel edge kept by
// --dedupe=false), or kInfinity when no list does.
vid_t first_repeated_neighbour(const Graph& g);
// Throws chatty::Error "APP: vertex V has a parallel edge, WHY (load with
// --dedupe)" where a list repeats a neighbour (apps that intersect lists).
void require_no_parallel_edges(const Graph& g, const char* app, const char* why);

// Vertex x lists the x' < x of its neighbours, ascending (relabelled when
// by_degree: x is the x-th vertex by descending degree). old_of_new[x] is
// x's vertex in g (empty when not relabelled).
struct Oriented {
  Graph graph;
  std::vector<vid_t> old_of_new;
};
// How orient_lower treats a file-mapped input's pages.
enum class InputPages {
  kKeep,  // left resident: faster, no page is faulted in twice
  kDrop,  // dropped once read: the input and the lower lists are never
          // resident whole together (host devices' count on kron:20 at
          // P = 1 peaks at 166 MB for a 134 MB .cgr)
};
Oriented orient_lower(const Graph& g, bool by_degree, InputPages pages);

}  // namespace chatty
