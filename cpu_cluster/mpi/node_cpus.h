// How many threads a rank uses where neither --threads nor OMP_NUM_THREADS
// says: the CPUs it may run on, shared with the ranks of its node that may
// run on them too. Launchers leave ranks unbound, or bind them to a whole
// socket past 2 ranks (OpenMPI), and OpenMP then gives each rank a thread
// per CPU: 3 ranks on 2 cores ran 6 threads, whose barriers spun through
// each other's time slices (SSSP on kron:16 took 4.9 s, against 0.02 s).
#pragma once

#include <mpi.h>

#include "cpu_cluster/cluster.h"

namespace chatty::mpi {

// Collective over `node` (this node's ranks, MPI_COMM_TYPE_SHARED): every
// rank's CPU mask is compared with the others'.
NodeCpus node_cpus(MPI_Comm node);

}  // namespace chatty::mpi
