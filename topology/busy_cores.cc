#include "topology/busy_cores.h"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

namespace chatty {

std::vector<CpuTimes> parse_proc_stat(const std::string& text) {
  std::vector<CpuTimes> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || line[3] < '0' || line[3] > '9') continue;
    std::istringstream fields(line.substr(3));
    CpuTimes t;
    fields >> t.cpu;
    unsigned long long x = 0;
    // user nice system idle iowait irq softirq steal [guest guest_nice]:
    // guest time is already in user's, and time the hypervisor stole is
    // no process of this machine holding the CPU, so neither counts.
    for (int i = 0; i < 7 && fields >> x; ++i) {
      t.total += x;
      if (i == 3 || i == 4) t.idle += x;  // idle, iowait
    }
    if (t.cpu >= 0 && t.total > 0) out.push_back(t);
  }
  return out;
}

std::vector<int> busy_cpus(const std::vector<CpuTimes>& before, const std::vector<CpuTimes>& after,
                           const std::vector<int>& allowed) {
  std::vector<int> busy;
  for (const CpuTimes& b : before) {
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), b.cpu) == allowed.end()) continue;
    const auto a = std::find_if(after.begin(), after.end(), [&](const CpuTimes& x) { return x.cpu == b.cpu; });
    if (a == after.end() || a->total <= b.total) continue;
    const unsigned long long total = a->total - b.total, idle = a->idle - b.idle;
    if (4 * (total - std::min(idle, total)) > 3 * total) busy.push_back(b.cpu);
  }
  return busy;
}

int busy_in_both(const std::vector<int>& first, const std::vector<int>& second) {
  return int(std::count_if(first.begin(), first.end(),
                           [&](int c) { return std::find(second.begin(), second.end(), c) != second.end(); }));
}

namespace {

std::vector<CpuTimes> sample() {
  std::ifstream f("/proc/stat");
  std::stringstream text;
  text << f.rdbuf();
  return parse_proc_stat(text.str());
}

std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

}  // namespace

int busy_cores_now() {
  using Clock = std::chrono::steady_clock;
  static std::mutex m;
  static Clock::time_point at;
  static int busy = -1;
  const std::lock_guard<std::mutex> lock(m);
  if (busy >= 0 && Clock::now() - at < std::chrono::seconds(1)) return busy;
  const std::vector<CpuTimes> before = sample();
  if (before.empty()) return 0;
  // /proc/stat counts in clock ticks (10 ms): two windows of four, in each
  // of which work that holds a core fills more than three; a process that
  // starts beside this one (the next command of a shell pipe, tens of
  // milliseconds of work) fills one window at most.
  const std::vector<int> allowed = allowed_cpus();
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  const std::vector<CpuTimes> middle = sample();
  const std::vector<int> first = busy_cpus(before, middle, allowed);
  // A core must be busy in both windows: none in the first (a quiet
  // machine, the common case) needs no second.
  if (!first.empty()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    busy = busy_in_both(first, busy_cpus(middle, sample(), allowed));
  } else {
    busy = 0;
  }
  at = Clock::now();
  return busy;
}

}  // namespace chatty
