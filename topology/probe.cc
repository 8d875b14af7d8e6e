// Probing the GPUs: properties and pair attributes from the CUDA driver,
// NVLink lanes and PCIe paths from NVML, NUMA node and CPU affinity from
// sysfs. Any library that is missing degrades the report, never the run.
#include "topology/probe.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>

#include "runtime/base/status.h"
#include "topology/cuda_driver.h"

namespace chatty::topo {
namespace {

// NVML, declared as in nvml.h (ABI-stable; the header is not installed).
namespace nvml {
using Device = struct nvmlDevice_st*;
struct PciInfo {
  char bus_id_legacy[16];
  unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
};
constexpr unsigned kMaxLinks = 18;
struct Api {
  int (*init)();
  int (*shutdown)();
  int (*by_bus_id)(const char*, Device*);
  int (*link_state)(Device, unsigned, int*);
  int (*link_version)(Device, unsigned, unsigned*);
  int (*remote_pci)(Device, unsigned, PciInfo*);
  int (*common_ancestor)(Device, Device, int*);
};
const Api* load() {
  static Api api;
  static const bool ok = [] {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return false;
    api.init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
    api.shutdown = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlShutdown"));
    api.by_bus_id = reinterpret_cast<int (*)(const char*, Device*)>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    api.link_state = reinterpret_cast<int (*)(Device, unsigned, int*)>(dlsym(lib, "nvmlDeviceGetNvLinkState"));
    api.link_version = reinterpret_cast<int (*)(Device, unsigned, unsigned*)>(dlsym(lib, "nvmlDeviceGetNvLinkVersion"));
    api.remote_pci =
        reinterpret_cast<int (*)(Device, unsigned, PciInfo*)>(dlsym(lib, "nvmlDeviceGetNvLinkRemotePciInfo_v2"));
    api.common_ancestor =
        reinterpret_cast<int (*)(Device, Device, int*)>(dlsym(lib, "nvmlDeviceGetTopologyCommonAncestor"));
    return api.init && api.by_bus_id && api.link_state && api.remote_pci && api.common_ancestor && api.init() == 0;
  }();
  return ok ? &api : nullptr;
}
}  // namespace nvml

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string sysfs(const std::string& bus_id, const char* file) {
  std::ifstream f("/sys/bus/pci/devices/" + lower(bus_id) + "/" + file);
  std::string s;
  std::getline(f, s);
  return s;
}

LinkKind pcie_kind(int level) {
  switch (level) {
    case 0:
    case 10: return LinkKind::kPcieSwitch;
    case 20: return LinkKind::kPcieMultiSwitch;
    case 30: return LinkKind::kHostBridge;
    case 40: return LinkKind::kNumaNode;
    default: return LinkKind::kSystem;
  }
}

// NVLink lanes from GPU a to GPU b (by bus id), lanes to NVSwitches, version.
void nvlinks(const nvml::Api& api, nvml::Device d, const std::vector<std::string>& bus_ids, std::vector<int>& to_gpu,
             int& to_switch, int& version) {
  to_gpu.assign(bus_ids.size(), 0);
  to_switch = 0;
  for (unsigned l = 0; l < nvml::kMaxLinks; ++l) {
    int active = 0;
    if (api.link_state(d, l, &active) != 0 || !active) continue;
    unsigned v = 0;
    if (api.link_version && api.link_version(d, l, &v) == 0) version = std::max(version, int(v));
    nvml::PciInfo remote{};
    if (api.remote_pci(d, l, &remote) != 0) continue;
    bool gpu = false;
    for (size_t j = 0; j < bus_ids.size(); ++j)
      if (lower(remote.bus_id).find(lower(bus_ids[j]).substr(4)) != std::string::npos) ++to_gpu[j], gpu = true;
    if (!gpu) ++to_switch;
  }
}

}  // namespace

Topology probe() {
  Topology t;
  t.name = "this machine";
  t.source = "probe";
  t.host = probe_host();
  std::string why;
  const cu::Api* api = cu::load(&why);
  int count = 0;
  if (api && api->cuDeviceGetCount(&count) != 0) count = 0, why = "the driver reports no devices";
  if (!api || count == 0) {
    t.note = (why.empty() ? "no NVIDIA GPU found" : why) + ": ChattyGraph will use the CPU backend";
    return t;
  }
  std::vector<std::string> bus_ids;
  for (int i = 0; i < count; ++i) {
    cu::Device d = 0;
    cu::check(*api, api->cuDeviceGet(&d, i), "cuDeviceGet");
    Gpu g;
    g.index = i;
    char name[256] = {0};
    api->cuDeviceGetName(name, sizeof name, d);
    g.name = name;
    size_t mem = 0;
    api->cuDeviceTotalMem_v2(&mem, d);
    g.memory_bytes = mem;
    int v[6] = {0};
    const int attrs[6] = {cu::kAttrMultiprocessors, cu::kAttrCcMajor, cu::kAttrCcMinor,
                          cu::kAttrPciDomain,       cu::kAttrPciBus,  cu::kAttrPciDevice};
    for (int k = 0; k < 6; ++k) api->cuDeviceGetAttribute(&v[k], attrs[k], d);
    g.sms = v[0];
    g.compute_capability = std::to_string(v[1]) + "." + std::to_string(v[2]);
    char bus[32];
    std::snprintf(bus, sizeof bus, "%04x:%02x:%02x.0", v[3], v[4], v[5]);
    g.pci_bus_id = bus;
    const std::string numa = sysfs(bus, "numa_node");
    g.numa_node = numa.empty() ? -1 : std::stoi(numa);
    g.cpu_affinity = sysfs(bus, "local_cpulist");
    bus_ids.push_back(bus);
    t.gpus.push_back(g);
  }
  t.links.assign(size_t(count * count), Link{});
  const nvml::Api* nv = nvml::load();
  std::vector<nvml::Device> handles(size_t(count), nullptr);
  if (nv)
    for (int i = 0; i < count; ++i) nv->by_bus_id(bus_ids[size_t(i)].c_str(), &handles[size_t(i)]);
  for (int a = 0; a < count; ++a) {
    std::vector<int> lanes;
    int to_switch = 0, version = 0;
    if (nv && handles[size_t(a)]) nvlinks(*nv, handles[size_t(a)], bus_ids, lanes, to_switch, version);
    for (int b = 0; b < count; ++b) {
      Link& l = t.link(a, b);
      if (a == b) {
        l = Link{LinkKind::kSelf, 0, 0, true, 0, true, Cost{}};
        continue;
      }
      int access = 0, rank = 0, atomics = 0;
      api->cuDeviceCanAccessPeer(&access, a, b);
      api->cuDeviceGetP2PAttribute(&rank, cu::kP2pPerfRank, a, b);
      api->cuDeviceGetP2PAttribute(&atomics, cu::kP2pNativeAtomics, a, b);
      l.peer_access = access != 0;
      l.perf_rank = rank;
      l.native_atomics = atomics != 0;
      int level = 50;
      if (nv && handles[size_t(a)] && handles[size_t(b)])
        nv->common_ancestor(handles[size_t(a)], handles[size_t(b)], &level);
      l.kind = pcie_kind(level);
      if (!lanes.empty() && lanes[size_t(b)] > 0) {
        l.kind = LinkKind::kNvLink, l.nvlinks = lanes[size_t(b)], l.nvlink_version = version;
      } else if (to_switch > 0 && l.peer_access) {
        l.kind = LinkKind::kNvSwitch, l.nvlinks = to_switch, l.nvlink_version = version;
      }
    }
  }
  if (!nv) t.note = "NVML not available: link kinds from peer access only";
  return t;
}

void estimate_costs(Topology& t) {
  bool estimated = false;
  auto fill = [&estimated](Cost& c, double lat, double gbps) {
    if (c.known()) return;
    c.latency_us = lat, c.bandwidth_gbps = gbps, estimated = true;
  };
  for (Gpu& g : t.gpus) {
    // Pinned host copies by PCIe generation, from the compute capability.
    const double major = g.compute_capability.empty() ? 7 : std::stod(g.compute_capability);
    const double pcie = major >= 9 ? 50 : major >= 8 ? 24 : 12;
    fill(g.host_copy, 10, pcie);
    fill(g.zero_copy, 3, pcie * 0.8);
  }
  double ring = 1e30;
  for (int a = 0; a < t.size(); ++a)
    for (int b = 0; b < t.size(); ++b) {
      if (a == b) continue;
      Link& l = t.link(a, b);
      // Per-lane, per-direction NVLink rates by version (NVIDIA specifications).
      const double lane = l.nvlink_version >= 2 ? 25 : 20;
      if (l.peer_access) {
        if (l.kind == LinkKind::kNvLink || l.kind == LinkKind::kNvSwitch)
          fill(l.p2p, 5, 0.85 * lane * l.nvlinks);
        else
          fill(l.p2p, 12, l.kind == LinkKind::kPcieSwitch ? 20 : 10);
      }
      ring = std::min(ring, l.p2p.known() ? l.p2p.bandwidth_gbps : t.gpus[size_t(a)].host_copy.bandwidth_gbps / 2);
    }
  if (t.size() >= 2) fill(t.nccl, 20, ring);
  if (estimated)
    t.note += std::string(t.note.empty() ? "" : "; ") + "costs estimated from link kinds (run --bench to measure)";
}

}  // namespace chatty::topo
