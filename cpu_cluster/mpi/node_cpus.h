// How many threads a rank uses where neither --threads nor OMP_NUM_THREADS
// says: the CPUs it may run on, shared with the ranks of its node that may
// run on them too. Launchers leave ranks unbound, or bind them to a whole
// socket past 2 ranks (OpenMPI), and OpenMP then gives each rank a thread
// per CPU: 3 ranks on 2 cores ran 6 threads, whose barriers spun through
// each other's time slices (SSSP on kron:16 took 4.9 s, against 0.02 s).
#pragma once

namespace chatty::mpi {

struct NodeCpus {
  int share = 1;     // this rank's threads unless told; at least 1
  int ranks = 1;     // ranks on this node
  int used = 0;      // CPUs that some rank of this node may run on
  int launcher = 0;  // CPUs the launcher's process here (the ranks' parent) may run on; 0 when unknown
};

// Collective over MPI_COMM_WORLD: every rank's CPU mask is compared with
// those of its node's ranks.
NodeCpus node_cpus();

}  // namespace chatty::mpi
