// What a chattygraph::Graph holds: the engine's Graph (edges in CSR,
// possibly views of arrays its caller keeps alive), what loading found,
// the names reports and --validate use, and the graph as the last run
// prepared it, shared by the runs of every thread.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "api/chattygraph.h"
#include "apps/cli/run_pipeline.h"
#include "datasets/load.h"
#include "runtime/graph/graph.h"

namespace chattygraph {

struct Graph::Impl {
  chatty::Graph g;
  chatty::LoadInfo info;
  std::string name;  // a path, a generator spec, or "<numpy>", "<scipy>", "<networkx>"
  std::string path;  // a file --validate can read again; "" for graphs made in memory
  // The graph as the last run prepared it (relabelled, weighted, in-edges,
  // chunks), reused by the next run with the same app and options: a
  // repeated call costs its compute only. Runs of several threads take it
  // under `preparing` and keep a reference for their run.
  mutable std::shared_ptr<const chatty::cli::Prepared> prepared;
  mutable std::string prepared_for;
  mutable std::unique_ptr<std::mutex> preparing = std::make_unique<std::mutex>();
};

}  // namespace chattygraph
