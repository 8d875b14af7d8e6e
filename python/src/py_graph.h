// A graph held by Python: the engine's Graph (edges in CSR, possibly views
// of NumPy arrays kept alive by their owners), what loading found, and
// what reports and --validate call it.
#pragma once

#include <memory>
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
  mutable std::shared_ptr<const cli::Prepared> prepared;
  mutable std::string prepared_for;
};

}  // namespace chatty::py
