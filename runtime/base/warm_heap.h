// Pages for a run's working arrays, backed before the run. A page the
// process writes for the first time costs a fault; on a VM whose host takes
// back the guest's free memory (virtio-balloon free page reporting) it
// costs a fault on the host too, which clears the page (the figures:
// docs/measurements.md, "CPU against GAP"). A process that keeps its freed
// memory in its heap (keep_freed_memory) can take that cost while it
// prepares the graph instead of inside the timed run.
#pragma once

#include <cstddef>

namespace chatty {

// Keeps freed memory in the process's heap from now on: malloc's trim
// threshold at 1 GiB and its mmap threshold at 32 MiB, so a --repeat run
// reuses the pages of the run before. For a process that runs and exits
// (chatty's CLI); a library's host process keeps its own malloc settings.
void keep_freed_memory();
// Whether keep_freed_memory was called.
bool freed_memory_kept();

// Allocates `bytes` in blocks the heap serves itself (31 MiB, under the
// mmap threshold above), writes each page of them on the calling thread's
// team, and frees them; each other thread of the team does the same with
// min(`per_thread`, a block) of its own arena (the heap its later
// allocations come from). Returns how many of `bytes` were written (fewer
// when an allocation failed: the rest is left alone). Worth its time only
// where freed memory is kept.
size_t warm_heap(size_t bytes, size_t per_thread);

}  // namespace chatty
