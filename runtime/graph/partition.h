// Splitting the vertex ids into P contiguous chunks, one per device
// (RGraph, section 3, after Gemini): chunk d owns [bounds[d], bounds[d+1])
// and the out-edges (and, for pull apps, in-edges) of those vertices.
// Balance: F(P_i) = alpha * |V_i - |V|/P| + |E_i - |E|/P|, alpha = floor(|E|/|V|).
// Start from cuts that even out alpha*|V_i| + |E_i|, then apply the
// neighbour-pair adjustment: take the chunk with the largest F and its
// neighbour with the larger F, move their shared cut to the position that
// minimises F_left + F_right, and repeat over all adjacent pairs until no
// move lowers the sum.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/graph/graph.h"

namespace chatty {

struct Partition {
  std::vector<vid_t> bounds;         // P+1 entries, bounds[0] = 0, bounds[P] = |V|
  std::vector<uint8_t> boundary;     // per vertex: 1 if an endpoint of an edge that crosses chunks
  std::vector<vid_t> boundary_list;  // the boundary vertices, increasing (so each chunk's are a run)
  std::vector<uint64_t> readers;     // reader_masks(), where a per-peer exchange will run; else empty
  bool readers_out_only = false;     // the out_only they were computed with

  int devices() const { return int(bounds.size()) - 1; }
  vid_t begin(int d) const { return bounds[size_t(d)]; }
  vid_t end(int d) const { return bounds[size_t(d) + 1]; }
  bool owns(int d, vid_t v) const { return v >= begin(d) && v < end(d); }
  int owner(vid_t v) const;
  uint64_t boundary_count(int d) const;
  // Lists the marked boundary vertices (after marks were combined).
  void list_boundary();
  // The run of boundary_list inside chunk d: [first, last).
  std::pair<const vid_t*, const vid_t*> boundary_of(int d) const;
};

struct ChunkStats {
  vid_t vertices = 0;
  eid_t edges = 0;
  uint64_t boundary = 0;
  double balance = 0;  // F(P_i)
};

// Throws chatty::Error when devices < 1 or exceeds |V|.
Partition partition_graph(const Graph& g, int devices);
// The chunk cuts partition_graph chooses, from the degrees' offsets alone
// (|V| + 1 entries): a rank cuts before it holds any edge.
std::vector<vid_t> partition_bounds(const eid_t* offsets, vid_t vertices, int devices);
// The chunks [bounds[d], bounds[d+1]) as given, with their boundary marked;
// throws chatty::Error unless the bounds rise strictly from 0 to |V|. Only
// the edges of rows [rows_lo, rows_hi) are read: a rank marks from its own
// rows, and the ranks' marks are OR-ed (then list_boundary()).
Partition partition_at(const Graph& g, std::vector<vid_t> bounds, vid_t rows_lo = 0, vid_t rows_hi = ~vid_t(0));
// Which devices read each vertex's value: bit e of readers[v] is set when
// device e owns a neighbour of v (an in- or out-neighbour) and does not own
// v itself, so a zero mask is an inner vertex. A changed vertex need travel
// only to its readers (and a push offer to its owner and readers): no other
// device reads it in a pull or a gather, and a device that pushes to it
// with a stale value only sends an offer its owner declines. Throws
// chatty::Error for more than 64 devices. With `out_only`, only the owners
// of v's out-neighbours read v: a gather reads in-neighbours' values and
// never pushes.
// Only the rows [rows_lo, rows_hi) are read, as partition_at does.
std::vector<uint64_t> reader_masks(const Graph& g, const Partition& p, bool out_only = false, vid_t rows_lo = 0,
                                   vid_t rows_hi = ~vid_t(0));
// The balance function of chunk [lo, hi) of g.
double balance_of(const Graph& g, int devices, vid_t lo, vid_t hi);
std::vector<ChunkStats> chunk_stats(const Graph& g, const Partition& p);

}  // namespace chatty
