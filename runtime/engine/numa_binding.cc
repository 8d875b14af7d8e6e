#include "runtime/engine/numa_binding.h"

#include <numa.h>

namespace chatty {

void bind_to_numa_node(int d) {
  if (numa_available() < 0) return;
  const int node = d % (numa_max_node() + 1);
  numa_run_on_node(node);
  numa_set_preferred(node);
}

}  // namespace chatty
