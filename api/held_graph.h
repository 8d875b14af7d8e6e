// What a chattygraph::Graph holds: the engine's Graph (edges in CSR,
// possibly views of arrays its caller keeps alive), what loading found,
// the names reports and --validate use, and the graph as the last run
// prepared it, shared by the runs of every thread.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api/chattygraph.h"
#include "apps/job/run_pipeline.h"
#include "datasets/load.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/graph_builder.h"

namespace chattygraph {

struct Graph::Impl {
  chatty::Graph g;
  chatty::LoadInfo info;
  std::string name;               // a path, a generator spec, or "<numpy>", "<scipy>", "<networkx>"
  std::string path;               // a file --validate can read again; "" for graphs made in memory
  chatty::LoadOptions read_with;  // how `path` was read
  // The graph as the last run prepared it (relabelled, weighted, in-edges,
  // chunks), reused by the next run with the same app and options: a
  // repeated call costs its compute only. Runs of several threads take it
  // under `preparing` and keep a reference for their run.
  mutable std::shared_ptr<const chatty::job::Prepared> prepared;
  mutable std::string prepared_for;
  mutable std::unique_ptr<std::mutex> preparing = std::make_unique<std::mutex>();
};

namespace detail {

// A held graph built from edge lists (src[i] -> dst[i], weights or none)
// over vertices 0..n-1: symmetrized unless `directed`, with `ids` the
// input's id of each vertex (empty: positions). Throws Error naming the
// first edge that names a vertex >= n.
Graph::Impl held_from_edges(chatty::EdgeList e, size_t n, bool directed, bool dedupe, bool drop_self_loops,
                            std::vector<uint64_t> ids, std::string name);

}  // namespace detail

}  // namespace chattygraph
