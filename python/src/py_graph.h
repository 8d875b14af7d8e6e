// A graph held by Python: the engine's Graph (edges in CSR, possibly views
// of NumPy arrays kept alive by their owners), what loading found, and
// what reports and --validate call it.
#pragma once

#include <string>

#include "datasets/load.h"
#include "runtime/graph.h"

namespace chatty::py {

struct PyGraph {
  Graph g;
  LoadInfo info;
  std::string name;  // a path, a generator spec, or "<numpy>", "<scipy>", "<networkx>"
  std::string path;  // a file --validate can read again; "" for graphs made in memory
};

}  // namespace chatty::py
