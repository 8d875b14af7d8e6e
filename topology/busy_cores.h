// How many of this process's CPUs other work keeps busy right now: a run
// that starts a thread on each of them waits at every barrier for the
// thread whose core another process holds (grid SSSP on 2 cores with one
// busy: 1.6x the one-thread time), so the engine leaves them out.
#pragma once

#include <string>
#include <vector>

namespace chatty {

// One CPU's times from /proc/stat (clock ticks): all of them but steal and
// guest, and the idle ones (idle + iowait).
struct CpuTimes {
  int cpu = -1;
  unsigned long long total = 0, idle = 0;
};

// The per-CPU lines ("cpuN ...") of /proc/stat's text.
std::vector<CpuTimes> parse_proc_stat(const std::string& text);

// The CPUs in `allowed` (empty: every one) busy for more than three
// quarters of the time between two samples.
std::vector<int> busy_cpus(const std::vector<CpuTimes>& before, const std::vector<CpuTimes>& after,
                           const std::vector<int>& allowed);
// How many CPUs both lists hold: busy in two windows in a row.
int busy_in_both(const std::vector<int>& first, const std::vector<int>& second);

// The CPUs this process may run on that are busy now, sampled over two
// windows of 40 ms, the second only where the first found a busy one (at
// most once a second: later calls reuse the sample); 0 where /proc/stat
// cannot be read.
int busy_cores_now();

}  // namespace chatty
