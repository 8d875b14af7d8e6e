// A graph held by Python: the engine's Graph (edges in CSR, possibly views
// of NumPy arrays kept alive by their owners), what loading found, and
// what reports and --validate call it.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "apps/cli/run_pipeline.h"
#include "datasets/load.h"
#include "runtime/graph/graph.h"

namespace chatty::py {

struct PyGraph {
  Graph g;
  LoadInfo info;
  std::string name;  // a path, a generator spec, or "<numpy>", "<scipy>", "<networkx>"
  std::string path;  // a file --validate can read again; "" for graphs made in memory
  // The graph as the last run prepared it (relabelled, weighted, in-edges,
  // chunks), reused by the next run with the same app and options: a
  // repeated call costs its compute only.
  // Runs of several threads share it: each takes the prepared graph under
  // this lock and keeps a reference for its run.
  mutable std::shared_ptr<const cli::Prepared> prepared;
  mutable std::string prepared_for;
  mutable std::unique_ptr<std::mutex> preparing = std::make_unique<std::mutex>();
};

}  // namespace chatty::py
