// Synthetic graphs, usable anywhere a file is:
//   kron:SCALE[:EF]  Graph500 Kronecker (A=.57 B=.19 C=.19), 2^SCALE vertices,
//                    EF*2^SCALE generated edges (EF default 16), ids permuted
//   urand:SCALE[:EF] uniform random (Erdos-Renyi-like), same sizes
//   grid:WxH         4-neighbour grid: low degree, diameter W+H
//   road:WxH         road-like: a WxH lattice of jittered points, each
//                    lattice edge kept with probability 0.7 and a few
//                    diagonals (degree 2-4, mean about 2.9, diameter about
//                    W+H, as road networks), weighted by length (about 40-200)
// All are undirected (stored both ways), deduplicated, without self loops,
// and a pure function of the spec and the seed (any thread count); road's
// are weighted, the others not.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/graph/graph.h"

namespace chatty {

struct GraphSpec {
  enum class Kind { kKron, kUrand, kGrid, kRoad } kind;
  uint32_t scale = 0;  // kron / urand
  uint32_t edge_factor = 16;
  uint64_t width = 0, height = 0;  // grid, road
};

// True when `s` names a generator (kron:, urand:, grid:, road:) rather than a file.
bool is_graph_spec(const std::string& s);
// Throws chatty::Error for a malformed spec or an out-of-range scale/size.
GraphSpec parse_graph_spec(const std::string& s);
// With rows [rows_lo, rows_hi) narrower than all vertices, only the edges
// of those rows are kept (a rank's own vertices); the other rows come out
// empty, so the result's offsets are not the whole graph's.
Graph generate_graph(const GraphSpec& spec, uint64_t seed, vid_t rows_lo = 0, vid_t rows_hi = ~vid_t(0));
// The rows [lo, hi) of the graph, generated from `raw`
// (generated_degree_offsets of the same spec and seed) without an edge
// list: what a rank holds. Other rows come out empty.
Graph generate_rows(const GraphSpec& spec, uint64_t seed, const std::vector<eid_t>& raw, vid_t lo, vid_t hi);
// Offsets of every vertex's degree as generated, both ways, before
// duplicate edges are merged: what a rank partitions by before it
// generates its own rows (O(|V|) memory, one pass over the edges).
std::vector<eid_t> generated_degree_offsets(const GraphSpec& spec, uint64_t seed);

}  // namespace chatty
