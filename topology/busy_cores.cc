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

int busy_between(const std::vector<CpuTimes>& before, const std::vector<CpuTimes>& after,
                 const std::vector<int>& allowed) {
  int busy = 0;
  for (const CpuTimes& b : before) {
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), b.cpu) == allowed.end()) continue;
    const auto a = std::find_if(after.begin(), after.end(), [&](const CpuTimes& x) { return x.cpu == b.cpu; });
    if (a == after.end() || a->total <= b.total) continue;
    const unsigned long long total = a->total - b.total, idle = a->idle - b.idle;
    busy += 4 * (total - std::min(idle, total)) > 3 * total;
  }
  return busy;
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
  // /proc/stat counts in clock ticks (10 ms): a window of five, in which
  // work that holds a core fills four or more, and a process starting
  // beside this one (the shell's next command in a pipe) fewer.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  busy = busy_between(before, sample(), allowed_cpus());
  at = Clock::now();
  return busy;
}

}  // namespace chatty
