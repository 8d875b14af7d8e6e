#include "comm/gpu_transports.h"

#include <string>

#include "runtime/status.h"

namespace chatty {

std::unique_ptr<Transport> make_gpu_transport(Comm comm, const std::vector<int>& gpu_of) {
  if (comm == Comm::kUva) return make_uva_transport(gpu_of);
  if (comm == Comm::kP2p) return make_p2p_transport(gpu_of);
  if (comm == Comm::kHost) return make_host_staged_transport(gpu_of);
  if (comm == Comm::kNccl) return make_nccl_transport(gpu_of);
  throw Error(std::string("--comm=") + comm_name(comm) +
              " is not available for GPU devices (auto, uva, p2p, nccl or host)");
}

}  // namespace chatty
