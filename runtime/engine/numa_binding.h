// Placing a host device's threads and memory on a NUMA node.
#pragma once

namespace chatty {

// Binds the calling thread (and the threads it starts) to NUMA node
// d % nodes and prefers that node's memory; no-op without libnuma support.
void bind_to_numa_node(int d);

}  // namespace chatty
