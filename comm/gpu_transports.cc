#include "comm/gpu_transports.h"

#include <string>
#include <utility>

#include "comm/transport_table.h"
#include "runtime/base/status.h"

namespace chatty {

std::unique_ptr<Transport> make_gpu_transport(Comm comm, const std::vector<int>& gpu_of) {
  check_serves(comm, World::kGpuDevices);
  // The factories of the table's GPU entries (comm/transport_table.h).
  const std::pair<Comm, std::unique_ptr<Transport> (*)(const std::vector<int>&)> makers[] = {
      {Comm::kUva, make_uva_transport},
      {Comm::kP2p, make_p2p_transport},
      {Comm::kHost, make_host_staged_transport},
      {Comm::kNccl, make_nccl_transport}};
  for (const auto& [c, make] : makers)
    if (c == comm) return make(gpu_of);
  throw Error(std::string("--comm=") + comm_name(comm) + ": no factory for GPU devices (internal error)");
}

}  // namespace chatty
