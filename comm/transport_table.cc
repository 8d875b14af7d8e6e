#include "comm/transport_table.h"

#include <algorithm>
#include <string>

#include "runtime/base/status.h"

namespace chatty {
namespace {

std::vector<TransportInfo> make_table() {
  using W = World;
  std::vector<TransportInfo> t;
  t.push_back({Comm::kHostView, W::kHostDevices, "host_view",
               "every receiver's slot views the sender's buffer (zero copy)", /*world_default=*/true});
  t.push_back({Comm::kHost, W::kHostDevices, "host", "the sender copies its buffer into every peer's slot"});
  t.push_back({Comm::kHostRead, W::kHostDevices, "host_read", "every receiver copies each sender's buffer"});
  t.push_back({Comm::kUva, W::kGpuDevices, "uva", "receivers read senders' buffers in mapped host memory"});
  t.back().mapped_send = true;
  t.push_back({Comm::kP2p, W::kGpuDevices, "p2p", "device-to-device copies (peer access where the GPUs have it)"});
  t.push_back({Comm::kNccl, W::kGpuDevices, "nccl", "NCCL broadcasts between distinct GPUs"});
  t.back().distinct_gpus = true;
  t.push_back({Comm::kHost, W::kGpuDevices, "host", "staged through pinned host memory"});
  t.push_back({Comm::kCopyIn, W::kGpuDevices, "async-copy", "a structure chunk copied into GPU memory once"});
  t.back().policy_only = true;
  t.push_back({Comm::kMpiRing, W::kRanks, "mpi_ring",
               "one-sided: batches streamed through fixed rings in MPI windows (auto where mpi_put's window passes 1 "
               "GiB a rank)",
               /*world_default=*/true});
  t.back().repoints_slots = true;
  t.push_back(
      {Comm::kMpiPut, W::kRanks, "mpi_put",
       "one-sided: one put per peer and superstep into a slot of |V| (auto while its window is at most 1 GiB a rank)"});
  t.back().repoints_slots = true;
  t.push_back({Comm::kMpiAlltoallv, W::kRanks, "mpi_alltoallv", "two-sided baseline: MPI_Alltoallv per superstep"});
  return t;
}

}  // namespace

Comm decide_auto(World world, const AutoFacts& facts) {
  if (world == World::kGpuDevices) return Comm::kAuto;
  if (world == World::kRanks) {
    if (facts.net == Net::kVerbs) return Comm::kAuto;
    const bool one_sided_wins = facts.small_bytes <= (size_t(1) << 20);
    if (one_sided_wins && facts.put_window_bytes <= facts.put_cap) return Comm::kMpiPut;
  }
  for (const TransportInfo& t : transport_table())
    if (t.world == world && t.world_default) return t.comm;
  throw Error(std::string("no default transport for ") + world_text(world) + " (internal error)");
}

const char* world_text(World w) {
  switch (w) {
    case World::kHostDevices: return "host devices";
    case World::kGpuDevices: return "GPU devices";
    default: return "ranks started by mpirun";
  }
}

const char* world_name(World w) {
  switch (w) {
    case World::kHostDevices: return "host";
    case World::kGpuDevices: return "gpu";
    default: return "ranks";
  }
}

const std::vector<TransportInfo>& transport_table() {
  static const std::vector<TransportInfo> table = make_table();
  return table;
}

Comm parse_comm(const std::string& s) {
  if (s == "auto") return Comm::kAuto;
  std::vector<std::string> names{"auto"};
  for (const TransportInfo& t : transport_table()) {
    if (t.policy_only) continue;
    if (s == t.name) return t.comm;
    if (std::find(names.begin(), names.end(), t.name) == names.end()) names.push_back(t.name);
  }
  std::string all;
  for (const std::string& n : names) all += (all.empty() ? "" : ", ") + n;
  throw Error("unknown --comm '" + s + "' (" + all + ")");
}

const char* comm_name(Comm c) {
  if (c == Comm::kAuto) return "auto";
  for (const TransportInfo& t : transport_table())
    if (t.comm == c) return t.name;
  return "?";
}

const TransportInfo* find_transport(Comm comm, World world) {
  for (const TransportInfo& t : transport_table())
    if (t.comm == comm && t.world == world) return &t;
  return nullptr;
}

std::string transport_names(World world, bool gpus_shared) {
  std::vector<std::string> names;
  for (const TransportInfo& t : transport_table())
    if (t.world == world && !t.policy_only && !(gpus_shared && t.distinct_gpus))
      names.push_back(std::string(t.name) + (t.world_default ? " (auto)" : ""));
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return s;
}

void check_serves(Comm comm, World world, bool gpus_shared) {
  if (comm == Comm::kAuto) return;
  const TransportInfo* t = find_transport(comm, world);
  if (!t || t->policy_only) {
    std::string where;  // the worlds it does serve
    for (const TransportInfo& e : transport_table())
      if (e.comm == comm && where.find(world_text(e.world)) == std::string::npos)
        where += (where.empty() ? "" : " and ") + std::string(world_text(e.world));
    throw Error(std::string("--comm=") + comm_name(comm) + " is not available for " + world_text(world) + " (" +
                transport_names(world) +
                (where.empty() ? "" : "; " + std::string(comm_name(comm)) + " serves " + where) + ")");
  }
  CHATTY_CHECK(!(t->distinct_gpus && gpus_shared), std::string("--comm=") + t->name +
                                                       " needs every device on its own GPU, but some devices share "
                                                       "a GPU (virtual devices); use auto, " +
                                                       transport_names(world, /*gpus_shared=*/true));
}

}  // namespace chatty
