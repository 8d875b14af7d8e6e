// The transports between ranks (cpu_cluster/cluster.h's make_cluster_transport
// chooses by --comm).
#pragma once

#include <memory>

#include "cpu_cluster/cluster.h"

namespace chatty::mpi {

// One-sided: MPI_Put into per-(receiver, sender) slots of `slot_records`.
std::unique_ptr<Transport> make_put_transport(const ClusterPlace& place, size_t slot_records, size_t item_bytes);

// One-sided, streamed: batches of at most `batch_bytes` through rings
// sharing `ring_bytes` per (sender, receiver) pair in the receivers'
// windows, one ring per lane (thread of the sender's team; `lanes` is the
// most any rank asks for); a pair's records under `small_bytes` a
// superstep go two-sided instead.
std::unique_ptr<Transport> make_ring_transport(const ClusterPlace& place, size_t item_bytes, size_t ring_bytes,
                                               size_t batch_bytes, size_t small_bytes, int lanes);

// Two-sided, the baseline many MPI graph codes use: one MPI_Alltoallv of
// every device's records per superstep.
std::unique_ptr<Transport> make_alltoallv_transport(const ClusterPlace& place, size_t item_bytes);

}  // namespace chatty::mpi
