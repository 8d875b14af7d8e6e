#include "topology/policy.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "runtime/base/status.h"

namespace chatty::topo {
namespace {

struct Option {
  Comm choice;
  double micros;
  std::string why_not;  // non-empty: unavailable, and why
};

std::string us(double x) {
  char b[32];
  if (x >= 1000)
    std::snprintf(b, sizeof b, "%.2f ms", x / 1000);
  else
    std::snprintf(b, sizeof b, "%.1f us", x);
  return b;
}

std::string size_text(uint64_t bytes) {
  char b[32];
  if (bytes >= (1ull << 30))
    std::snprintf(b, sizeof b, "%.0f GB", double(bytes) / double(1ull << 30));
  else if (bytes >= (1ull << 20))
    std::snprintf(b, sizeof b, "%.0f MB", double(bytes) / double(1ull << 20));
  else if (bytes >= 1024)
    std::snprintf(b, sizeof b, "%.0f KB", double(bytes) / 1024);
  else
    std::snprintf(b, sizeof b, "%llu B", static_cast<unsigned long long>(bytes));
  return b;
}

// Picks the cheapest available option and explains it against the runner-up
// and the options the links rule out.
Decision pick(std::vector<Option> opts, const std::string& what) {
  std::sort(opts.begin(), opts.end(), [](const Option& a, const Option& b) {
    if (a.why_not.empty() != b.why_not.empty()) return a.why_not.empty();
    return a.micros < b.micros;
  });
  CHATTY_CHECK(!opts.empty() && opts[0].why_not.empty(), "no transport can move " + what);
  Decision d{opts[0].choice, opts[0].micros, ""};
  d.reason = std::string(comm_name(d.choice)) + " " + us(d.micros) + " for " + what;
  if (opts.size() > 1 && opts[1].why_not.empty())
    d.reason += "; next " + std::string(comm_name(opts[1].choice)) + " " + us(opts[1].micros);
  for (const Option& o : opts)
    if (!o.why_not.empty()) d.reason += "; no " + std::string(comm_name(o.choice)) + ": " + o.why_not;
  return d;
}

void check_devices(const Topology& t, const std::vector<int>& devices) {
  CHATTY_CHECK(t.size() > 0, "topology '" + t.name + "' has no GPUs");
  CHATTY_CHECK(!devices.empty(), "no devices to exchange between");
  for (int d : devices)
    CHATTY_CHECK(d >= 0 && d < t.size(), "device maps to GPU " + std::to_string(d) + ", which '" + t.name +
                                             "' does not have (it has " + std::to_string(t.size()) + ")");
}

// Copy between two runtime devices placed on GPUs a and b by P2P (a local
// device-to-device copy when they share a GPU).
double p2p_micros(const Topology& t, int a, int b, uint64_t bytes) {
  if (a == b) return 2.0 + double(bytes) / 1e6;  // on-device copy: ~1 TB/s
  return t.link(a, b).p2p.micros(bytes);
}

}  // namespace

std::vector<int> all_gpus(const Topology& t) {
  std::vector<int> v(size_t(t.size()));
  for (int i = 0; i < t.size(); ++i) v[size_t(i)] = i;
  return v;
}

Decision decide_pair(const Topology& t, uint64_t bytes, int from, int to) {
  check_devices(t, {from, to});
  const Link& l = t.link(from, to);
  const Gpu &a = t.gpus[size_t(from)], &b = t.gpus[size_t(to)];
  std::vector<Option> opts;
  if (from == to || (l.peer_access && l.p2p.known()))
    opts.push_back({Comm::kP2p, p2p_micros(t, from, to, bytes), ""});
  else
    opts.push_back({Comm::kP2p, 0, "GPU " + std::to_string(from) + " cannot access GPU " + std::to_string(to)});
  opts.push_back({Comm::kUva, a.zero_copy.micros(bytes) + b.zero_copy.micros(bytes),
                  a.zero_copy.known() && b.zero_copy.known() ? "" : "no zero-copy figures"});
  opts.push_back({Comm::kHost, a.host_copy.micros(bytes) + b.host_copy.micros(bytes),
                  a.host_copy.known() && b.host_copy.known() ? "" : "no host-copy figures"});
  return pick(opts, size_text(bytes) + " GPU " + std::to_string(from) + " -> " + std::to_string(to));
}

Decision decide(const Topology& t, DataClass cls, uint64_t bytes, const std::vector<int>& devices) {
  check_devices(t, devices);
  const size_t p = devices.size();
  std::vector<Option> opts;
  if (cls == DataClass::kStructure) {
    // Chunks are loaded once: staged through pinned memory with async copies
    // when they fit, else left in mapped host memory (out of core).
    uint64_t smallest = ~uint64_t(0);
    double copy = 0, zero = 0;
    for (int d : devices) {
      smallest = std::min(smallest, t.gpus[size_t(d)].memory_bytes);
      copy = std::max(copy, t.gpus[size_t(d)].host_copy.micros(bytes));
      zero = std::max(zero, t.gpus[size_t(d)].zero_copy.micros(bytes));
    }
    const bool fits = bytes <= smallest;
    opts.push_back({Comm::kCopyIn, copy, fits ? "" : "a chunk of " + size_text(bytes) + " exceeds GPU memory"});
    opts.push_back({Comm::kUva, fits ? zero * 10 : zero, ""});  // in place, but re-read every superstep
    return pick(opts, size_text(bytes) + " chunk per device");
  }
  if (cls == DataClass::kStatus) {
    double uva = 0, host = 0;
    for (int d : devices) {
      uva = std::max(uva, t.gpus[size_t(d)].zero_copy.micros(bytes * p));
      host = std::max(host, 2 * t.gpus[size_t(d)].host_copy.micros(bytes * p));
    }
    opts.push_back({Comm::kUva, uva, ""});
    opts.push_back({Comm::kHost, host, ""});
    return pick(opts, size_text(bytes) + " of status from each of " + std::to_string(p) + " devices");
  }
  // Application data: every device broadcasts its buffer to every other.
  std::string no_p2p;
  double p2p = 0, uva = 0, host = 0;
  for (size_t i = 0; i < p; ++i) {
    double sender = 0;
    for (size_t j = 0; j < p; ++j) {
      if (i == j) continue;
      const int a = devices[i], b = devices[j];
      if (a != b && !(t.link(a, b).peer_access && t.link(a, b).p2p.known())) {
        if (no_p2p.empty()) no_p2p = "GPUs " + std::to_string(a) + " and " + std::to_string(b) + " have no peer access";
        continue;
      }
      sender += p2p_micros(t, a, b, bytes);
    }
    p2p = std::max(p2p, sender);
    const Gpu& g = t.gpus[size_t(devices[i])];
    uva = std::max(uva, g.zero_copy.micros(bytes) + g.zero_copy.micros(bytes * (p - 1)));
    host = std::max(host, g.host_copy.micros(bytes) * double(p));
  }
  opts.push_back({Comm::kP2p, p2p, no_p2p});
  std::string no_nccl;
  if (find_transport(Comm::kNccl, World::kGpuDevices)->distinct_gpus &&
      std::set<int>(devices.begin(), devices.end()).size() != p)
    no_nccl = "devices share a GPU (nccl needs distinct GPUs)";
  else if (p < 2)
    no_nccl = "one device";
  else if (!t.nccl.known())
    no_nccl = "no NCCL figures";
  opts.push_back({Comm::kNccl, double(p) * t.nccl.micros(bytes), no_nccl});
  opts.push_back({Comm::kUva, uva, ""});
  opts.push_back({Comm::kHost, host, ""});
  return pick(opts, size_text(bytes) + " broadcast from each of " + std::to_string(p) + " devices");
}

}  // namespace chatty::topo
