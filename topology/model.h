// The topology of one box: its GPUs, how every ordered pair of them is
// linked, and what each transport measured (or, for the synthetic boxes,
// what public specifications say). Built by the probe, by the link
// benchmarks, or loaded from JSON (schema: docs/design.md, "Topology JSON").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "runtime/base/json_value.h"

namespace chatty::topo {

// How a pair is connected, best first (the nvidia-smi topo -m vocabulary).
enum class LinkKind { kSelf, kNvLink, kNvSwitch, kPcieSwitch, kPcieMultiSwitch, kHostBridge, kNumaNode, kSystem };
const char* link_kind_name(LinkKind k);  // "X", "NV", "NVS", "PIX", "PXB", "PHB", "NODE", "SYS"
LinkKind parse_link_kind(const std::string& s);

// A transport's cost: time(bytes) = latency + bytes / bandwidth, fitted to
// measurements at 4 KB .. 64 MB (samples kept as measured: bytes -> us).
struct Cost {
  double latency_us = 0;
  double bandwidth_gbps = 0;  // GB/s (1e9 bytes per second)
  std::vector<std::pair<uint64_t, double>> samples;
  bool known() const { return bandwidth_gbps > 0; }
  double micros(uint64_t bytes) const;
};

struct Gpu {
  int index = 0;
  std::string name;
  uint64_t memory_bytes = 0;
  int sms = 0;
  std::string compute_capability;  // "9.0"
  std::string pci_bus_id;          // "0000:18:00.0"
  int numa_node = -1;
  std::string cpu_affinity;  // "0-31,64-95"
  Cost host_copy;            // explicit host<->device copies (pinned)
  Cost zero_copy;            // UVA: device reads mapped host memory
};

struct Link {
  LinkKind kind = LinkKind::kSystem;
  int nvlinks = 0;  // NVLink lanes between the pair
  int nvlink_version = 0;
  bool peer_access = false;  // cuDeviceCanAccessPeer
  int perf_rank = 0;         // CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK (lower is better)
  bool native_atomics = false;
  Cost p2p;  // cuMemcpyPeerAsync between the pair
};

struct Host {
  int sockets = 1, numa_nodes = 1, cores = 1;
  std::string cpu;
};

struct Topology {
  std::string name;
  std::string source;  // "probe", "synthetic", "file"
  std::string note;    // e.g. why no GPU was found
  Host host;
  std::vector<Gpu> gpus;
  std::vector<Link> links;  // gpus.size()^2, row-major: links[i * n + j]
  Cost nccl;                // NCCL ring broadcast over all GPUs (per broadcast)

  int size() const { return int(gpus.size()); }
  Link& link(int i, int j) { return links[size_t(i * size() + j)]; }
  const Link& link(int i, int j) const { return links[size_t(i * size() + j)]; }
  // Identifies the hardware (GPU names, bus ids, links): a cached
  // measurement is only reused while this is unchanged.
  std::string fingerprint() const;
};

// The topology as the document its files hold (schema chattygraph-topology/1),
// and that document's text.
JsonValue topology_document(const Topology& t);
std::string to_json(const Topology& t, int indent = 2);
// Throws chatty::Error naming `what` for malformed JSON or a schema mismatch.
Topology from_json(const std::string& text, const std::string& what);

}  // namespace chatty::topo
