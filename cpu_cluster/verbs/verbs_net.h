// The cluster seam over rdma-core verbs (--net=verbs): the fabric's words,
// its barrier and status all-gather, and the records go by RDMA on
// reliable-connected queue pairs; MPI only bootstraps the connections.
// Built where libibverbs is found; it has not yet run on an RDMA device.
#pragma once

#include <memory>

#include "cpu_cluster/cluster.h"

namespace chatty::verbs {

// Collectives: every rank constructs them in the same order. Throw
// chatty::Error when the device cannot be opened or connected.
std::unique_ptr<Fabric> make_verbs_fabric(const ClusterPlace& place);
std::unique_ptr<Transport> make_verbs_transport(const ClusterPlace& place, size_t slot_records, size_t item_bytes);

}  // namespace chatty::verbs
