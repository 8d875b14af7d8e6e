// Pages for a run's working arrays, backed before the run. A page the
// process writes for the first time costs a fault; on a VM whose host takes
// back the guest's free memory (virtio-balloon free page reporting) it
// costs a fault on the host too, which clears the page: kron:20 BFS's first
// run took 30 ms on fresh pages and 16 ms on pages the process had written
// before. A process that keeps freed memory in its heap (chatty's main sets
// M_TRIM_THRESHOLD to 1 GiB and M_MMAP_THRESHOLD to 32 MiB) can take that
// cost while it prepares the graph instead of inside the timed run.
#pragma once

#include <cstddef>

namespace chatty {

// Allocates `bytes` in blocks the heap serves itself (31 MiB, under
// chatty's mmap threshold), writes each page of them on the calling thread's team,
// and frees them; each other thread of the team does the same with
// `per_thread` bytes of its own arena (the heap its later allocations come
// from). The memory stays with the process only where freed memory is kept
// (see above); elsewhere this only costs the time. Returns the bytes
// written (less when an allocation failed: the rest is left alone).
size_t warm_heap(size_t bytes, size_t per_thread);

}  // namespace chatty
