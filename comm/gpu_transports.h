// Transports between GPU devices, behind the same exchange interface as the
// host transports (comm/transport.h), and the policy that picks one per
// exchange from the box's topology:
//   uva   the sender's buffer is copied into mapped pinned host memory once;
//         receivers' merge kernels read it in place (zero copy)
//   p2p   cudaMemcpyPeerAsync into every peer's receive slot (peer access
//         enabled where the pair allows; a device-to-device copy between
//         virtual devices on one GPU)
//   nccl  every device broadcasts its buffer as root into the peers' slots,
//         grouped, one call per device thread (seed 001 algorithm 1);
//         libnccl.so.2 is opened at run time; distinct GPUs only
//   host  staged through pinned host memory by the sender
// `gpu_of` maps devices to CUDA ordinals. Built only with the CUDA backend.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "comm/transport.h"
#include "topology/model.h"

namespace chatty {

// Throws chatty::Error for an unknown name, or NCCL that cannot load or
// run on this placement.
std::unique_ptr<Transport> make_gpu_transport(Comm comm, const std::vector<int>& gpu_of);

// --comm: a fixed transport by name, or "auto": per exchange the transport
// the topology policy (topology/policy.h) finds cheapest for the data class
// and size on this box (`topology`, else probe + cached measurements, else
// estimates). A choice the run cannot make (NCCL that does not load, a
// topology without these GPUs) falls back to p2p, which always works.
std::unique_ptr<TransportPolicy> make_gpu_policy(Comm comm, const std::vector<int>& gpu_of,
                                                 const topo::Topology* topology = nullptr);

}  // namespace chatty
