// Where a process stands among the ranks of a run: plain values, made by
// the inter-node layer (cpu_cluster/) or, for one process, by the engine.
#pragma once

namespace chatty {

// A rank's CPUs and its node's.
struct NodeCpus {
  int share = 1;     // the threads it runs unless told (--threads, OMP_NUM_THREADS); at least 1
  int ranks = 1;     // ranks on its node
  int used = 0;      // CPUs that some rank of the node may run on
  int launcher = 0;  // CPUs the launcher's process there (the ranks' parent) may run on; 0 when unknown
};

// A rank drives `local` consecutive devices of the run's ranks x local.
struct ClusterPlace {
  int rank = 0, ranks = 1;
  int local = 1;  // devices per rank
  NodeCpus cpus;
  int devices() const { return ranks * local; }
  int first() const { return rank * local; }
  int rank_of(int d) const { return d / local; }
};

// The kinds of MPI operations a rank's counts tell apart (MultiStats::
// rank_ops): puts, gets, atomics (accumulate-class operations,
// compare-and-swap), flushes, two-sided sends and receives, collectives.
enum class MpiOp : int { kPut, kGet, kAtomic, kFlush, kSend, kRecv, kCollective };
constexpr int kMpiOps = 7;

}  // namespace chatty
