// Whether a launcher started this process as one of several ranks: the
// environment each launcher sets for its processes, and where a rank
// stands among the ranks of its node.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <string>
#include <vector>

#include "cpu_cluster/cluster.h"

namespace chatty {

// Slurm's count is the step's, which srun sets for its tasks: a batch
// script's own SLURM_NTASKS is the allocation's, and a chatty started
// there directly runs alone.
bool launched_as_ranks() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS", "SLURM_STEP_NUM_TASKS"}) {
    const char* v = std::getenv(var);
    if (v && std::atoi(v) > 1) return true;
  }
  return false;
}

namespace {

// The first of the launchers' variables that is set, as an index; 0 when none is.
int first_index(std::initializer_list<const char*> vars) {
  for (const char* var : vars) {
    const char* v = std::getenv(var);
    if (v && *v) return std::max(0, std::atoi(v));
  }
  return 0;
}

}  // namespace

int launched_rank() {
  return launched_as_ranks() ? first_index({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"}) : -1;
}

int node_local_rank() {
  return first_index({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMIX_LOCAL_RANK", "SLURM_LOCALID"});
}

double cluster_fault_take_thief_stall_s() {
  static std::atomic<bool> taken{false};
  const char* v = std::getenv("CHATTY_FAULT_THIEF_STALL_S");
  if (!v || taken.exchange(true)) return 0;
  return std::max(0.0, std::atof(v));
}

bool cluster_fault_stop_at_finish(int rank) {
  const char* v = std::getenv("CHATTY_FAULT_STOP_AT_FINISH");
  return v && *v && std::atoi(v) == rank;
}

int64_t cluster_fault_shm_free_mb() {
  const char* v = std::getenv("CHATTY_FAULT_SHM_FREE_MB");
  return v && *v ? std::max<int64_t>(0, std::atoll(v)) : -1;
}

std::string ranks_named(const std::vector<int>& ranks) {
  std::string named = ranks.size() > 1 ? "ranks " : "rank ";
  for (size_t i = 0; i < ranks.size(); ++i) named += (i ? ", " : "") + std::to_string(ranks[i]);
  return named;
}

const char* mpi_op_name(MpiOp op) {
  static const char* const names[kMpiOps] = {"put", "get", "atomic", "flush", "send", "recv", "collective"};
  return names[int(op)];
}

}  // namespace chatty
