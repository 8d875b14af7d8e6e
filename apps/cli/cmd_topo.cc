// `chatty topo`: how this box's GPUs are linked and which transport
// ChattyGraph uses for each kind of data.
#include <cstdio>

#include "apps/cli/commands.h"
#include "apps/cli/flags.h"
#include "comm/transport_table.h"
#include "runtime/base/json_value.h"
#include "runtime/base/status.h"
#include "topology/library.h"
#include "topology/probe.h"
#include "topology/report.h"

DEFINE_string(topology, "",
              "show a synthetic topology (dgx1-v100, dgx-a100, dgx-h100, pcie8) or a JSON file instead of probing");
DEFINE_bool(bench, false, "topo: measure the links (4 KB .. 64 MB per transport) and cache the figures");
DEFINE_bool(transports, false,
            "topo: list the transports --comm can name, the devices each serves and what auto means, and stop");
DEFINE_string(topology_cache, "",
              "topo: cache file for measured link figures (default ~/.cache/chattygraph/topology.json)");

namespace chatty::cli {

namespace {

// The transport table (comm/transport_table.h), as sweeps and users read it.
int print_transports() {
  if (FLAGS_json) {
    JsonValue report = JsonValue::object();
    JsonValue& rows = report.set("transports", JsonValue::array());
    for (const TransportInfo& t : transport_table()) {
      JsonValue& row = rows.push(JsonValue::object());
      row.set("name", t.name);
      row.set("world", world_name(t.world));
      row.set("auto", t.world_default);
      row.set("comm_flag", !t.policy_only);
      row.set("gpu_ranks", t.repoints_slots);
      row.set("how", t.how);
    }
    std::printf("%s\n", report.dump().c_str());
    return 0;
  }
  std::printf("%-14s %-24s %-5s %s\n", "transport", "serves", "auto", "what");
  for (const TransportInfo& t : transport_table())
    std::printf("%-14s %-24s %-5s %s%s\n", t.name, world_text(t.world), t.world_default ? "yes" : "", t.how,
                t.policy_only ? " (the topology policy's; not a --comm choice)" : "");
  std::printf("GPU devices: auto is the topology policy's pick per data class and size (chatty topo).\n");
  return 0;
}

}  // namespace

int cmd_topo(const std::vector<std::string>& args) {
  CHATTY_CHECK(args.empty(), "topo: unexpected argument '" + (args.empty() ? "" : args[0]) + "'");
  if (FLAGS_transports) return print_transports();
  using namespace chatty::topo;
  Topology t;
  if (!FLAGS_topology.empty()) {
    as_usage(
        [] { CHATTY_CHECK(!FLAGS_bench, "--bench measures this machine; it cannot be combined with --topology"); });
    t = load_topology(FLAGS_topology);
  } else {
    t = probe();
    const std::string cache = FLAGS_topology_cache.empty() ? default_cache_path() : FLAGS_topology_cache;
    if (FLAGS_bench) {
      run_link_benchmarks(t, !FLAGS_json);
      save_cache(t, cache);
    } else if (t.size() > 0) {
      std::string why;
      if (!apply_cache(t, cache, &why)) t.note += std::string(t.note.empty() ? "" : "; ") + why;
    }
    estimate_costs(t);
  }
  std::vector<int> devices;
  if (t.size() > 0 && FLAGS_devices > 1)
    for (int d = 0; d < FLAGS_devices; ++d) devices.push_back(d % t.size());  // virtual devices round-robin
  std::fputs((FLAGS_json ? render_json(t, devices) + "\n" : render_text(t, devices)).c_str(), stdout);
  return 0;
}

}  // namespace chatty::cli
