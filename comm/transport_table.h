// Every transport an exchange can use, in one table: its --comm name, the
// world it serves, what it does in one line, and the traits the runtime
// and the policies ask about. `--comm` is parsed against this table once,
// each world checks a choice with check_serves(), the topology policy
// ranks the GPU world's entries, and every refusal lists the table's names.
// The factories live with the transports of each world (comm/host,
// comm/gpu, cpu_cluster/mpi), which look their entries up here.
#pragma once

#include <string>
#include <vector>

#include "runtime/base/engine_options.h"

namespace chatty {

// Who a transport connects: host devices of one process (threads sharing
// memory), GPU devices of one process, or ranks started by mpirun.
enum class World { kHostDevices, kGpuDevices, kRanks };

struct TransportInfo {
  Comm comm;
  World world;
  const char* name;  // what --comm says, and --json and the policies report
  const char* how;   // one line: what it does
  // What --comm=auto means in this world where no policy ranks the entries
  // (host devices; ranks over MPI).
  bool world_default = false;
  // Only the topology policy picks it (structure placement): --comm cannot.
  bool policy_only = false;
  // Connects a pair of devices only where they sit on distinct GPUs (NCCL).
  bool distinct_gpus = false;
  // Delivers by re-pointing receive slots at its own host memory, so GPU
  // devices inside ranks can stage through it (comm/gpu_transports.h).
  bool repoints_slots = false;
  // A sender's buffer is read by its peers in place: it lives in mapped
  // host memory (GPU devices).
  bool mapped_send = false;
};

// The whole table, in the order --help and refusals list it.
const std::vector<TransportInfo>& transport_table();

// auto, or the name of an entry --comm may choose; throws chatty::Error
// listing the names otherwise.
Comm parse_comm(const std::string& s);
const char* comm_name(Comm c);  // "auto" or the entry's name

// The entry of `comm` in `world`; null where it does not serve that world.
const TransportInfo* find_transport(Comm comm, World world);

// Throws chatty::Error, naming the world's transports, where `comm` is not
// auto and does not serve `world`. `gpus_shared`: some GPU holds several
// devices (a transport with distinct_gpus cannot connect them).
void check_serves(Comm comm, World world, bool gpus_shared = false);

// What a world knows where --comm=auto is decided for it (ranks only).
struct AutoFacts {
  Net net = Net::kAuto;         // --net: verbs take their own path
  size_t put_window_bytes = 0;  // mpi_put's window on a rank for this run
  size_t put_cap = 0;           // the largest window auto takes (--put_window_mb)
  size_t small_bytes = 0;       // the switch point: a pair's records below it go two-sided
};

// What --comm=auto means in `world`, decided here for every world. Host
// devices: the table's default entry. Ranks: mpi_put while its window
// fits put_cap and one-sided transfers win from 1 MB on (small_bytes at
// most 1 MB: where a two-sided message beats a put even at 1 MB, as under
// MPICH here, the rings send every pair's records as one message and
// win), else the table's default (mpi_ring); over verbs, kAuto (the verbs
// path's own slots). GPU devices: kAuto, for the topology policy
// (topology/policy.h), which ranks the world's entries per exchange.
Comm decide_auto(World world, const AutoFacts& facts = {});

// "a, b (auto) or c": the names --comm may give in `world`; with
// `gpus_shared`, those that can connect devices sharing a GPU.
std::string transport_names(World world, bool gpus_shared = false);

const char* world_name(World world);  // "host", "gpu" or "ranks"
const char* world_text(World world);  // "host devices", ...

}  // namespace chatty
