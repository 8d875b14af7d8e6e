// Transports between GPU devices, one file each under comm/gpu/, behind the
// exchange interface of the host transports (comm/transport.h). Each says
// which device pairs it can connect; the policies that choose among them
// live in topology/gpu_policy.h. `gpu_of` maps devices to CUDA ordinals.
// Built only with the CUDA backend.
#pragma once

#include <memory>
#include <vector>

#include "comm/transport.h"
#include "runtime/base/engine_options.h"

namespace chatty {

std::unique_ptr<Transport> make_uva_transport(const std::vector<int>& gpu_of);
std::unique_ptr<Transport> make_p2p_transport(const std::vector<int>& gpu_of);
std::unique_ptr<Transport> make_host_staged_transport(const std::vector<int>& gpu_of);
// Throws chatty::Error where NCCL cannot load or two devices share a GPU.
std::unique_ptr<Transport> make_nccl_transport(const std::vector<int>& gpu_of);
// NCCL's pair rule, known before its communicators are made: distinct GPUs.
bool nccl_connects(const std::vector<int>& gpu_of, int from, int to);

// GPU devices inside ranks: `between_ranks` (cpu_cluster/cluster.h) moves every
// pair's records, read from the devices' send buffers in mapped pinned
// host memory, and what it delivers to host memory is copied up into the
// receiving device's slots. It must deliver by re-pointing receive slots
// at its own host memory (mpi_ring, mpi_put), not by writing into them.
std::unique_ptr<Transport> make_rank_staged_transport(std::unique_ptr<Transport> between_ranks, int devices);

// The transport --comm names (uva, p2p, host, nccl); throws chatty::Error
// for a name that serves host devices only.
std::unique_ptr<Transport> make_gpu_transport(Comm comm, const std::vector<int>& gpu_of);

}  // namespace chatty
