// The policies that pick a GPU transport (comm/gpu_transports.h) for each
// exchange. Built only with the CUDA backend.
#pragma once

#include <memory>
#include <vector>

#include "comm/transport.h"
#include "runtime/base/engine_options.h"
#include "topology/model.h"

namespace chatty {

// --comm: a fixed transport, refused (chatty::Error) if it cannot connect
// every pair of devices; or auto: per exchange the transport the topology
// policy (topology/policy.h) finds cheapest for the data class and size on
// this box (`topology`, else probe + cached measurements, else estimates),
// among those that connect every pair. A choice the run cannot make (NCCL
// that does not load, a topology without these GPUs) falls back to p2p.
std::unique_ptr<TransportPolicy> make_gpu_policy(Comm comm, const std::vector<int>& gpu_of,
                                                 const topo::Topology* topology = nullptr);

}  // namespace chatty
