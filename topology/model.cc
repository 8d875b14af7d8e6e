#include "topology/model.h"

#include <algorithm>

#include "runtime/base/hash.h"
#include "runtime/base/status.h"

namespace chatty::topo {
namespace {

constexpr const char* kSchema = "chattygraph-topology/1";
constexpr const char* kKindNames[] = {"X", "NV", "NVS", "PIX", "PXB", "PHB", "NODE", "SYS"};

JsonValue cost_json(const Cost& c) {
  JsonValue j = JsonValue::object();
  j.set("latency_us", c.latency_us);
  j.set("bandwidth_gbps", c.bandwidth_gbps);
  if (!c.samples.empty()) {
    JsonValue& s = j.set("samples", JsonValue::array());
    for (auto [bytes, us] : c.samples) {
      JsonValue& pair = s.push(JsonValue::array());
      pair.push(bytes);
      pair.push(us);
    }
  }
  return j;
}

Cost cost_from(const JsonValue* j) {
  Cost c;
  if (!j || j->is_null()) return c;
  c.latency_us = j->get("latency_us", 0.0);
  c.bandwidth_gbps = j->get("bandwidth_gbps", 0.0);
  if (const JsonValue* samples = j->find("samples"))
    for (const JsonValue& s : samples->items("samples")) {
      const auto& pair = s.items("a sample");
      CHATTY_CHECK(pair.size() == 2, "a sample is not [bytes, microseconds]");
      c.samples.push_back({uint64_t(pair[0].as_int("a sample's bytes", 0)), pair[1].as_number("a sample's time")});
    }
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

JsonValue topology_document(const Topology& t) {
  JsonValue j = JsonValue::object();
  j.set("schema", kSchema);
  j.set("name", t.name);
  j.set("source", t.source);
  if (!t.note.empty()) j.set("note", t.note);
  j.set("fingerprint", t.fingerprint());
  JsonValue& host = j.set("host", JsonValue::object());
  host.set("sockets", t.host.sockets);
  host.set("numa_nodes", t.host.numa_nodes);
  host.set("cores", t.host.cores);
  host.set("cpu", t.host.cpu);
  JsonValue& gpus = j.set("gpus", JsonValue::array());
  for (const Gpu& g : t.gpus) {
    JsonValue& x = gpus.push(JsonValue::object());
    x.set("index", g.index);
    x.set("name", g.name);
    x.set("memory_bytes", g.memory_bytes);
    x.set("sms", g.sms);
    x.set("compute_capability", g.compute_capability);
    x.set("pci_bus_id", g.pci_bus_id);
    x.set("numa_node", g.numa_node);
    x.set("cpu_affinity", g.cpu_affinity);
    x.set("host_copy", cost_json(g.host_copy));
    x.set("zero_copy", cost_json(g.zero_copy));
  }
  JsonValue& links = j.set("links", JsonValue::array());
  for (int a = 0; a < t.size(); ++a)
    for (int b = 0; b < t.size(); ++b) {
      if (a == b) continue;
      const Link& l = t.link(a, b);
      JsonValue& x = links.push(JsonValue::object());
      x.set("from", a);
      x.set("to", b);
      x.set("kind", link_kind_name(l.kind));
      x.set("nvlinks", l.nvlinks);
      x.set("nvlink_version", l.nvlink_version);
      x.set("peer_access", l.peer_access);
      x.set("perf_rank", l.perf_rank);
      x.set("native_atomics", l.native_atomics);
      x.set("p2p", cost_json(l.p2p));
    }
  j.set("nccl_broadcast", cost_json(t.nccl));
  return j;
}

std::string to_json(const Topology& t, int indent) { return topology_document(t).dump(indent); }

Topology from_json(const std::string& text, const std::string& what) {
  try {
    const JsonValue j = parse_json(text);
    CHATTY_CHECK(j.get("schema", "") == kSchema,
                 what + ": not a ChattyGraph topology (schema '" + j.get("schema", "") + "', want '" + kSchema + "')");
    Topology t;
    t.name = j.get("name", "");
    t.source = j.get("source", "file");
    t.note = j.get("note", "");
    if (const JsonValue* h = j.find("host"))
      t.host = Host{h->get("sockets", 1), h->get("numa_nodes", 1), h->get("cores", 1), h->get("cpu", "")};
    const JsonValue* gpus = j.find("gpus");
    CHATTY_CHECK(gpus, "no \"gpus\" list");
    for (const JsonValue& g : gpus->items("gpus")) {
      Gpu x;
      const JsonValue* index = g.find("index");
      CHATTY_CHECK(index, "a GPU without an index");
      x.index = int(index->as_int("a GPU's index", 0, 1 << 20));
      x.name = g.get("name", "");
      x.memory_bytes = uint64_t(g.get("memory_bytes", int64_t(0)));
      x.sms = g.get("sms", 0);
      x.compute_capability = g.get("compute_capability", "");
      x.pci_bus_id = g.get("pci_bus_id", "");
      x.numa_node = g.get("numa_node", -1);
      x.cpu_affinity = g.get("cpu_affinity", "");
      x.host_copy = cost_from(g.find("host_copy"));
      x.zero_copy = cost_from(g.find("zero_copy"));
      CHATTY_CHECK(x.index == int(t.gpus.size()), what + ": gpus must be listed by index from 0");
      t.gpus.push_back(x);
    }
    const int n = t.size();
    t.links.assign(size_t(n * n), Link{});
    for (int i = 0; i < n; ++i) t.link(i, i) = Link{LinkKind::kSelf, 0, 0, true, 0, true, Cost{}};
    if (const JsonValue* links = j.find("links"))
      for (const JsonValue& l : links->items("links")) {
        const int a = l.get("from", -1), b = l.get("to", -1);
        CHATTY_CHECK(a >= 0 && b >= 0 && a < n && b < n && a != b,
                     what + ": link " + std::to_string(a) + "-" + std::to_string(b) + " names no pair of GPUs");
        Link& x = t.link(a, b);
        x.kind = parse_link_kind(l.get("kind", "SYS"));
        x.nvlinks = l.get("nvlinks", 0);
        x.nvlink_version = l.get("nvlink_version", 0);
        x.peer_access = l.get("peer_access", false);
        x.perf_rank = l.get("perf_rank", 0);
        x.native_atomics = l.get("native_atomics", false);
        x.p2p = cost_from(l.find("p2p"));
      }
    t.nccl = cost_from(j.find("nccl_broadcast"));
    return t;
  } catch (const Error& e) {
    const std::string m = e.what();
    // The checks above that name the file already; the parser's and the
    // values' do not.
    if (m.rfind(what + ":", 0) == 0) throw;
    throw Error(what + ": bad topology JSON: " + m);
  }
}

}  // namespace chatty::topo
