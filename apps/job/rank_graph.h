// What one rank of a cluster loads: the chunk cuts of the whole run and
// the rows of its own vertices (runtime/graph/held_rows.h), never the whole
// graph where it can avoid it.
//   kron:/urand:/grid: specs: every rank counts the generated degrees
//     (one pass, O(|V|) memory), cuts, then generates only the edges that
//     touch its rows; the ranks all-gather their rows' exact degrees.
//   .cgr: mapped in place; a rank reads the offsets and its own rows, so
//     only those pages are ever read in.
//   text formats: every rank parses the whole file, then keeps its rows
//     (and, for a directed graph that needs them, its rows of the in-edges)
//     and frees the rest: peak memory is the whole graph's; convert to .cgr
//     first to avoid it.
#pragma once

#include <string>
#include <vector>

#include "cpu_cluster/cluster.h"
#include "datasets/load.h"
#include "runtime/base/status.h"
#include "runtime/graph/graph.h"

namespace chatty::job {

struct RankGraph {
  Graph g;                    // rows [bounds[first], bounds[first + local]) held (g.rows_lo(), g.rows_hi())
  std::vector<vid_t> bounds;  // R x P + 1 chunk cuts of the run
  // What this rank loaded, for the ranks to agree on, alike for one graph
  // in any format: |V|, |E|, direction, weights, every vertex's degree, the
  // ids, and the edges of every row (of 64 blocks of rows past 2^24
  // edges), hashed.
  uint64_t fingerprint = 0;
};

// Runs f, then agrees with every other rank on the first error any of them
// had (every rank throws it) before any goes on to a collective: a failure
// on one rank alone (a missing file) would otherwise leave the others
// waiting in a collective it never enters.
template <typename F>
void agreed(F&& f) {
  std::string err;
  try {
    f();
  } catch (const Error& e) {
    err = e.what();
  }
  cluster_throw_agreed(err);
}

// Throws chatty::Error, naming `what`, as load_graph does; `in_edges`: the
// app reads in-edges (built here, before rows are dropped).
RankGraph load_rank_graph(const std::string& what, const LoadOptions& opt, const ClusterPlace& place, bool in_edges,
                          LoadInfo* info);

// The rows load_rank_graph keeps, from a whole graph this rank already
// holds (a file it read, or a library's graph in memory): `what` names it
// in errors.
RankGraph rank_rows_of(Graph whole, const LoadInfo* info, const ClusterPlace& place, bool in_edges,
                       const std::string& what);

// For an app whose ranks split the work, not the graph (AppSpec::
// whole_graph): the whole graph on every rank, with the run's chunk cuts
// and the same fingerprint rule.
RankGraph load_whole_graph(const std::string& what, const LoadOptions& opt, const ClusterPlace& place, LoadInfo* info);
// The same for a graph already held; `generated`: from a generator spec
// (its edges are not hashed: the spec names them).
RankGraph whole_graph_of(Graph whole, const LoadInfo* info, const ClusterPlace& place, const std::string& what,
                         bool generated);

}  // namespace chatty::job
