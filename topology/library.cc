#include "topology/library.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runtime/base/cache_dir.h"
#include "runtime/base/status.h"

namespace chatty::topo {

// Generated at configure time from topology/data/*.json.
const std::vector<std::pair<std::string, std::string>>& embedded_topologies();

std::vector<std::string> synthetic_names() {
  std::vector<std::string> names;
  for (const auto& [name, json] : embedded_topologies()) names.push_back(name);
  return names;
}

Topology load_topology(const std::string& what) {
  for (const auto& [name, json] : embedded_topologies())
    if (name == what) return from_json(json, "synthetic topology " + name);
  std::ifstream f(what);
  if (!f) {
    std::string names;
    for (const std::string& n : synthetic_names()) names += (names.empty() ? "" : ", ") + n;
    throw Error("--topology=" + what + ": no such synthetic topology (" + names + ") or readable file");
  }
  std::stringstream ss;
  ss << f.rdbuf();
  Topology t = from_json(ss.str(), what);
  if (t.source.empty()) t.source = "file";
  return t;
}

std::string default_cache_path() { return cache_file("topology.json"); }

bool apply_cache(Topology& t, const std::string& path, std::string* why) {
  std::ifstream f(path);
  if (!f) {
    if (why) *why = "no cached measurements at " + path;
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  Topology cached;
  try {
    cached = from_json(ss.str(), path);
  } catch (const Error& e) {
    if (why) *why = std::string("ignoring unreadable cache: ") + e.what();
    return false;
  }
  if (cached.fingerprint() != t.fingerprint() || cached.size() != t.size()) {
    if (why) *why = "cache at " + path + " describes other hardware; run --bench to measure this machine";
    return false;
  }
  for (int i = 0; i < t.size(); ++i) {
    t.gpus[size_t(i)].host_copy = cached.gpus[size_t(i)].host_copy;
    t.gpus[size_t(i)].zero_copy = cached.gpus[size_t(i)].zero_copy;
  }
  for (size_t k = 0; k < t.links.size(); ++k) t.links[k].p2p = cached.links[k].p2p;
  t.nccl = cached.nccl;
  t.source += "+cache";
  return true;
}

void save_cache(const Topology& t, const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::ofstream f(path);
  f << to_json(t) << "\n";
  CHATTY_CHECK(f.good(), path + ": cannot write the topology cache");
}

}  // namespace chatty::topo
