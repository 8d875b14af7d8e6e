// Where topologies come from besides the probe: the synthetic boxes shipped
// in topology/data/ (embedded in the binary), JSON files, and the cache of
// measured link figures.
#pragma once

#include <string>
#include <vector>

#include "topology/model.h"

namespace chatty::topo {

std::vector<std::string> synthetic_names();  // dgx1-v100, dgx-a100, dgx-h100, pcie8
// A synthetic NAME or a JSON FILE; throws chatty::Error naming it otherwise.
Topology load_topology(const std::string& name_or_file);

// $XDG_CACHE_HOME/chattygraph/topology.json (or ~/.cache/...).
std::string default_cache_path();
// Copies measured costs from the cache into `t` when the cache describes
// the same hardware (same fingerprint). Returns whether it did; `why` says
// why not (no cache, other hardware, unreadable).
bool apply_cache(Topology& t, const std::string& path, std::string* why);
void save_cache(const Topology& t, const std::string& path);

}  // namespace chatty::topo
