// Vertex relabelling by degree (hubs first). Pull kernels read a value per
// in-edge at the edge's source; on graphs whose ids carry no locality (the
// Kronecker generator permutes them, as Graph500 does) those reads miss the
// cache. Numbering vertices by descending out-degree packs the most-read
// values into few cache lines (PageRank on kron:20: ~1.35x per iteration).
// Runs on the relabelled graph map their results back with old_of_new.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

namespace chatty {

struct Reordered {
  Graph graph;                    // same edges, new ids
  std::vector<vid_t> old_of_new;  // new id -> id in the input
  std::vector<vid_t> new_of_old;  // id in the input -> new id
};

// Stable: vertices of equal degree keep their relative order. Parallel,
// one CSR's worth of extra memory. With chunk bounds [chunks[d],
// chunks[d+1]), every vertex keeps its chunk (hubs first within each), so
// the chunks keep their vertices and edges: a multi-device run partitions
// the input ids, then relabels within each device's chunk. Throws
// chatty::Error for bounds that do not rise from 0 to |V|.
Reordered reorder_by_degree(const Graph& g, const std::vector<vid_t>& chunks = {});

// Breadth-first order (Cuthill-McKee's, without sorting a level by
// degree): from the vertex of most out-edges, neighbours in list order,
// each further component from its least unvisited id. A vertex's
// neighbours get nearby ids, so a gather reads their values from few cache
// lines where degree order scatters them (a variant for graphs with
// locality to find: meshes, roads). Sequential, one pass over the edges;
// chunks keep their vertices as above, in visit order within each.
// Throws chatty::Error as above, and for a graph of which this process
// holds some rows only (the order needs every row).
Reordered reorder_by_bfs(const Graph& g, const std::vector<vid_t>& chunks = {});

// values_in_new_order[new] -> values[old].
template <typename V>
std::vector<V> to_old_order(const std::vector<V>& in_new, const std::vector<vid_t>& old_of_new) {
  std::vector<V> out(in_new.size());
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < in_new.size(); ++i) out[old_of_new[i]] = in_new[i];
  return out;
}

}  // namespace chatty
