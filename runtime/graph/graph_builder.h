// Turns edge lists (from loaders and generators) into a Graph: degree count,
// prefix sum, scatter, per-list sort, optional dedupe / self-loop removal /
// symmetrize; all parallel, with no more than one temporary edge array.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty {

// Edges as parallel arrays; weights empty or one per edge. Loaders produce
// one EdgeList per parsing thread, so the builder takes several.
struct EdgeList {
  std::vector<vid_t> src, dst;
  std::vector<weight_t> weight;
  size_t size() const { return src.size(); }
};

struct BuildOptions {
  bool symmetrize = false;  // add (v,u) for every (u,v); graph undirected
  bool dedupe = true;       // keep one copy of parallel edges (min weight)
  bool drop_self_loops = true;
  // Keep only the edges whose source (after symmetrizing) lies in
  // [rows_lo, rows_hi): the rows a rank holds; other rows come out empty.
  vid_t rows_lo = 0, rows_hi = ~vid_t(0);
};

// num_vertices: |V| (ids must be < num_vertices). `weighted` says whether the
// lists carry weights. Consumes the lists (their memory is released early).
Graph build_graph(std::vector<EdgeList>&& lists, vid_t num_vertices, bool weighted, const BuildOptions& opt);

// Sorts every neighbour list by target (weights move with their targets).
void sort_neighbor_lists(Csr& csr);
// The same for the rows [lo, hi) of csr, whose arrays are written through
// `targets` and `weights` (null when unweighted).
void sort_neighbor_lists(const Csr& csr, vid_t* targets, weight_t* weights, vid_t lo, vid_t hi);
// Keeps one copy of each target in every sorted list (the lightest weight)
// and packs the lists to the left; returns the edges kept (the caller
// shrinks the arrays).
eid_t dedupe_neighbor_lists(Csr& csr);

// Deterministic SSSP weights 1..255 for an unweighted graph: a hash of the
// seed and the unordered pair {u,v}, so both directions of an undirected
// edge agree and results do not depend on edge order or thread count.
// Only the rows [lo, hi) are read and weighted when a graph holds only
// those (the result is then backed for those rows only).
Buffer<weight_t> default_weights(const Csr& csr, uint64_t seed, vid_t lo = 0, vid_t hi = ~vid_t(0));

}  // namespace chatty
