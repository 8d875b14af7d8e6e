// A graph held by Python: the library's held graph (api/held_graph.h),
// whose edges may be views of NumPy arrays kept alive by their owners.
#pragma once

#include "api/held_graph.h"

namespace chatty::py {

using PyGraph = chattygraph::Graph::Impl;

}  // namespace chatty::py
