#include "topology/report.h"

#include <cstdio>

#include "runtime/base/json_value.h"
#include "topology/policy.h"

namespace chatty::topo {
namespace {

struct Band {
  DataClass cls;
  uint64_t bytes;
  const char* label;
  const char* size;
};

const Band kBands[] = {
    {DataClass::kStatus, 64, "status", "64 B"},
    {DataClass::kApplication, 4 << 10, "application", "4 KB"},
    {DataClass::kApplication, 64 << 10, "application", "64 KB"},
    {DataClass::kApplication, 1 << 20, "application", "1 MB"},
    {DataClass::kApplication, 16 << 20, "application", "16 MB"},
    {DataClass::kApplication, 64 << 20, "application", "64 MB"},
    {DataClass::kStructure, uint64_t(1) << 30, "structure", "1 GB"},
};

std::string cell(const Link& l) {
  if (l.kind == LinkKind::kNvLink) return "NV" + std::to_string(l.nvlinks);
  if (l.kind == LinkKind::kNvSwitch) return "NVS" + std::to_string(l.nvlinks);
  return link_kind_name(l.kind);
}

std::string fmt(const char* f, double a, double b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a, b);
  return buf;
}

// `text` right-aligned in `width` columns, appended to `out`.
void right(std::string& out, const std::string& text, int width) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%*s", width, text.c_str());
  out += buf;
}

std::string gpu_label(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "GPU%d", i);
  return buf;
}

}  // namespace

std::string render_text(const Topology& t, std::vector<int> devices) {
  std::string s;
  char line[512];
  std::snprintf(line, sizeof line, "topology    %s (%s), fingerprint %s\n", t.name.c_str(), t.source.c_str(),
                t.fingerprint().c_str());
  s += line;
  std::snprintf(line, sizeof line, "host        %d socket(s), %d NUMA node(s), %d cores%s%s%s\n", t.host.sockets,
                t.host.numa_nodes, t.host.cores, t.host.cpu.empty() ? "" : " (", t.host.cpu.c_str(),
                t.host.cpu.empty() ? "" : ")");
  s += line;
  if (!t.note.empty()) {
    s += "note        ";
    s += t.note;
    s += '\n';
  }
  if (t.size() == 0) {
    s += "\nNo NVIDIA GPU is usable here, so ChattyGraph uses the CPU backend.\n"
         "See a GPU box's report with --topology=dgx1-v100 | dgx-a100 | dgx-h100 | pcie8 | FILE.\n";
    return s;
  }
  const int n = t.size();
  s += "\n      ";
  for (int j = 0; j < n; ++j) right(s, gpu_label(j), 6);
  s += "  NUMA  CPU affinity  name\n";
  for (int i = 0; i < n; ++i) {
    right(s, gpu_label(i), -6);
    for (int j = 0; j < n; ++j) right(s, cell(t.link(i, j)), 6);
    const Gpu& g = t.gpus[size_t(i)];
    char tail[256];
    std::snprintf(tail, sizeof tail, "  %4d  %-12s  %s, %.0f GB, %d SMs, sm_%s\n", g.numa_node, g.cpu_affinity.c_str(),
                  g.name.c_str(), double(g.memory_bytes) / double(1ull << 30), g.sms, g.compute_capability.c_str());
    s += tail;
  }
  s += "Legend: X self, NV# NVLink (# lanes), NVS# NVSwitch (# lanes), PIX one PCIe switch, PXB several PCIe\n"
       "        switches, PHB PCIe host bridge, NODE within a NUMA node, SYS across sockets\n";
  s += "\nP2P copy GB/s (latency us); - where the pair has no peer access\n      ";
  for (int j = 0; j < n; ++j) right(s, gpu_label(j), 13);
  s += "\n";
  for (int i = 0; i < n; ++i) {
    right(s, gpu_label(i), -6);
    for (int j = 0; j < n; ++j) {
      const Link& l = t.link(i, j);
      right(s,
            i == j                             ? "X"
            : (l.peer_access && l.p2p.known()) ? fmt("%.1f (%.1f)", l.p2p.bandwidth_gbps, l.p2p.latency_us)
                                               : "-",
            13);
    }
    s += "\n";
  }
  s += "\nhost links    copy GB/s (us)   zero-copy GB/s (us)\n";
  for (const Gpu& g : t.gpus) {
    std::snprintf(line, sizeof line, "GPU%-4d      %8.1f (%.1f)     %8.1f (%.1f)\n", g.index,
                  g.host_copy.bandwidth_gbps, g.host_copy.latency_us, g.zero_copy.bandwidth_gbps,
                  g.zero_copy.latency_us);
    s += line;
  }
  if (t.nccl.known())
    s += fmt("NCCL broadcast over all GPUs: %.1f GB/s, %.1f us\n", t.nccl.bandwidth_gbps, t.nccl.latency_us);
  if (devices.empty()) devices = all_gpus(t);
  std::snprintf(line, sizeof line, "\ntransport policy for %zu devices on GPUs", devices.size());
  s += line;
  for (int d : devices) right(s, std::to_string(d), 2);
  s += "\n  class        size    choice      reason\n";
  for (const Band& b : kBands) {
    const Decision d = decide(t, b.cls, b.bytes, devices);
    std::snprintf(line, sizeof line, "  %-12s %-7s %-11s ", b.label, b.size, comm_name(d.choice));
    s += line;
    s += d.reason;
    s += '\n';
  }
  return s;
}

std::string render_json(const Topology& t, std::vector<int> devices) {
  JsonValue j = JsonValue::object();
  j.set("topology", topology_document(t));
  j.set("backend", t.size() > 0 ? "cuda" : "cpu");
  if (t.size() > 0) {
    if (devices.empty()) devices = all_gpus(t);
    j.set("devices", JsonValue::array_of(devices));
  }
  JsonValue& policy = j.set("policy", JsonValue::array());
  if (t.size() > 0) {
    for (const Band& b : kBands) {
      const Decision d = decide(t, b.cls, b.bytes, devices);
      JsonValue& x = policy.push(JsonValue::object());
      x.set("class", b.label);
      x.set("bytes", b.bytes);
      x.set("choice", comm_name(d.choice));
      x.set("micros", d.micros);
      x.set("reason", d.reason);
    }
  }
  return j.dump();
}

}  // namespace chatty::topo
