// How many threads a rank uses where neither --threads nor OMP_NUM_THREADS
// says: the CPUs it may run on, shared with the ranks of its node that may
// run on them too. Launchers leave ranks unbound, or bind them to a whole
// socket past 2 ranks (OpenMPI), and OpenMP then gives each rank a thread
// per CPU: 3 ranks on 2 cores ran 6 threads, whose barriers spun through
// each other's time slices (SSSP on kron:16 took 4.9 s, against 0.02 s).
#pragma once

namespace chatty::mpi {

// Collective over MPI_COMM_WORLD: every rank's CPU mask is compared with
// those of its node's ranks. At least 1.
int node_share_of_cpus();

}  // namespace chatty::mpi
