#include "topology/model.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "runtime/base/hash.h"
#include "runtime/base/status.h"

namespace chatty::topo {
namespace {

using nlohmann::json;
constexpr const char* kSchema = "chattygraph-topology/1";
constexpr const char* kKindNames[] = {"X", "NV", "NVS", "PIX", "PXB", "PHB", "NODE", "SYS"};

json cost_json(const Cost& c) {
  json j = {{"latency_us", c.latency_us}, {"bandwidth_gbps", c.bandwidth_gbps}};
  if (!c.samples.empty()) {
    json s = json::array();
    for (auto [bytes, us] : c.samples) s.push_back({bytes, us});
    j["samples"] = s;
  }
  return j;
}

Cost cost_from(const json& j) {
  Cost c;
  if (j.is_null()) return c;
  c.latency_us = j.value("latency_us", 0.0);
  c.bandwidth_gbps = j.value("bandwidth_gbps", 0.0);
  if (j.contains("samples"))
    for (const auto& s : j.at("samples")) c.samples.push_back({s.at(0).get<uint64_t>(), s.at(1).get<double>()});
  return c;
}

}  // namespace

const char* link_kind_name(LinkKind k) { return kKindNames[int(k)]; }

LinkKind parse_link_kind(const std::string& s) {
  for (int i = 0; i < 8; ++i)
    if (s == kKindNames[i]) return LinkKind(i);
  throw Error("unknown link kind '" + s + "' (X, NV, NVS, PIX, PXB, PHB, NODE, SYS)");
}

double Cost::micros(uint64_t bytes) const {
  if (!known()) return 1e30;
  // Measured samples win where they reach: linear between neighbouring
  // sizes, the smallest sample's time below them (latency-bound), and the
  // fitted bandwidth past the largest.
  if (samples.size() >= 2) {
    if (bytes <= samples.front().first) return samples.front().second;
    for (size_t i = 1; i < samples.size(); ++i)
      if (bytes <= samples[i].first) {
        const auto [b0, t0] = samples[i - 1];
        const auto [b1, t1] = samples[i];
        return t0 + (t1 - t0) * double(bytes - b0) / double(b1 - b0);
      }
    return samples.back().second + double(bytes - samples.back().first) / (bandwidth_gbps * 1e3);
  }
  return latency_us + double(bytes) / (bandwidth_gbps * 1e3);  // GB/s = 1e3 bytes per us
}

std::string Topology::fingerprint() const {
  uint64_t h = splitmix64(uint64_t(gpus.size()));
  auto mix = [&h](const std::string& s) {
    for (unsigned char c : s) h = splitmix64(h ^ c);
  };
  for (const Gpu& g : gpus) mix(g.name + "|" + g.pci_bus_id + "|" + std::to_string(g.memory_bytes));
  for (const Link& l : links)
    mix(std::string(link_kind_name(l.kind)) + std::to_string(l.nvlinks) + (l.peer_access ? "p" : "-"));
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string to_json(const Topology& t, int indent) {
  json j;
  j["schema"] = kSchema;
  j["name"] = t.name;
  j["source"] = t.source;
  if (!t.note.empty()) j["note"] = t.note;
  j["fingerprint"] = t.fingerprint();
  j["host"] = {
      {"sockets", t.host.sockets}, {"numa_nodes", t.host.numa_nodes}, {"cores", t.host.cores}, {"cpu", t.host.cpu}};
  j["gpus"] = json::array();
  for (const Gpu& g : t.gpus)
    j["gpus"].push_back({{"index", g.index},
                         {"name", g.name},
                         {"memory_bytes", g.memory_bytes},
                         {"sms", g.sms},
                         {"compute_capability", g.compute_capability},
                         {"pci_bus_id", g.pci_bus_id},
                         {"numa_node", g.numa_node},
                         {"cpu_affinity", g.cpu_affinity},
                         {"host_copy", cost_json(g.host_copy)},
                         {"zero_copy", cost_json(g.zero_copy)}});
  j["links"] = json::array();
  for (int a = 0; a < t.size(); ++a)
    for (int b = 0; b < t.size(); ++b) {
      if (a == b) continue;
      const Link& l = t.link(a, b);
      j["links"].push_back({{"from", a},
                            {"to", b},
                            {"kind", link_kind_name(l.kind)},
                            {"nvlinks", l.nvlinks},
                            {"nvlink_version", l.nvlink_version},
                            {"peer_access", l.peer_access},
                            {"perf_rank", l.perf_rank},
                            {"native_atomics", l.native_atomics},
                            {"p2p", cost_json(l.p2p)}});
    }
  j["nccl_broadcast"] = cost_json(t.nccl);
  return j.dump(indent);
}

Topology from_json(const std::string& text, const std::string& what) {
  try {
    const json j = json::parse(text);
    CHATTY_CHECK(j.value("schema", "") == kSchema, what + ": not a ChattyGraph topology (schema '" +
                                                       j.value("schema", "") + "', want '" + kSchema + "')");
    Topology t;
    t.name = j.value("name", "");
    t.source = j.value("source", "file");
    t.note = j.value("note", "");
    if (j.contains("host")) {
      const json& h = j.at("host");
      t.host = Host{h.value("sockets", 1), h.value("numa_nodes", 1), h.value("cores", 1), h.value("cpu", "")};
    }
    for (const auto& g : j.at("gpus")) {
      Gpu x;
      x.index = g.at("index").get<int>();
      x.name = g.value("name", "");
      x.memory_bytes = g.value("memory_bytes", uint64_t(0));
      x.sms = g.value("sms", 0);
      x.compute_capability = g.value("compute_capability", "");
      x.pci_bus_id = g.value("pci_bus_id", "");
      x.numa_node = g.value("numa_node", -1);
      x.cpu_affinity = g.value("cpu_affinity", "");
      x.host_copy = cost_from(g.value("host_copy", json()));
      x.zero_copy = cost_from(g.value("zero_copy", json()));
      CHATTY_CHECK(x.index == int(t.gpus.size()), what + ": gpus must be listed by index from 0");
      t.gpus.push_back(x);
    }
    const int n = t.size();
    t.links.assign(size_t(n * n), Link{});
    for (int i = 0; i < n; ++i) t.link(i, i) = Link{LinkKind::kSelf, 0, 0, true, 0, true, Cost{}};
    for (const auto& l : j.value("links", json::array())) {
      const int a = l.at("from").get<int>(), b = l.at("to").get<int>();
      CHATTY_CHECK(a >= 0 && b >= 0 && a < n && b < n && a != b,
                   what + ": link " + std::to_string(a) + "-" + std::to_string(b) + " names no pair of GPUs");
      Link& x = t.link(a, b);
      x.kind = parse_link_kind(l.value("kind", "SYS"));
      x.nvlinks = l.value("nvlinks", 0);
      x.nvlink_version = l.value("nvlink_version", 0);
      x.peer_access = l.value("peer_access", false);
      x.perf_rank = l.value("perf_rank", 0);
      x.native_atomics = l.value("native_atomics", false);
      x.p2p = cost_from(l.value("p2p", json()));
    }
    t.nccl = cost_from(j.value("nccl_broadcast", json()));
    return t;
  } catch (const json::exception& e) {
    throw Error(what + ": bad topology JSON: " + e.what());
  }
}

}  // namespace chatty::topo
