// Host facts for the topology report, read from Linux's /sys and /proc.
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "topology/probe.h"

namespace chatty::topo {
namespace {

// Counts the ids in a Linux cpulist/nodelist such as "0-3,8".
int count_list(const std::string& s) {
  int n = 0;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ',')) {
    if (part.empty()) continue;
    const size_t dash = part.find('-');
    n += dash == std::string::npos ? 1 : std::stoi(part.substr(dash + 1)) - std::stoi(part.substr(0, dash)) + 1;
  }
  return n;
}

std::string read_line(const std::string& path) {
  std::ifstream f(path);
  std::string s;
  std::getline(f, s);
  return s;
}

}  // namespace

Host probe_host() {
  Host h;
  h.cores = int(std::thread::hardware_concurrency());
  const std::string nodes = read_line("/sys/devices/system/node/online");
  h.numa_nodes = nodes.empty() ? 1 : count_list(nodes);
  std::set<std::string> packages;
  for (int c = 0; c < h.cores; ++c) {
    const std::string p =
        read_line("/sys/devices/system/cpu/cpu" + std::to_string(c) + "/topology/physical_package_id");
    if (!p.empty()) packages.insert(p);
  }
  h.sockets = packages.empty() ? 1 : int(packages.size());
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      h.cpu = line.substr(line.find(':') + 2);
      break;
    }
  return h;
}

}  // namespace chatty::topo
