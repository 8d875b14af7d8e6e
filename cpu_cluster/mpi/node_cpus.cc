#include "cpu_cluster/mpi/node_cpus.h"

#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <vector>

#include "cpu_cluster/mpi/mpi_util.h"

namespace chatty::mpi {

namespace {

// The CPUs this rank may run on. With OMP_PROC_BIND or OMP_PLACES set,
// OpenMP pins the main thread to its first place before main() runs, so
// the rank's own mask is the union of OpenMP's places instead.
bool rank_cpus(cpu_set_t& mine) {
  CPU_ZERO(&mine);
  if (omp_get_proc_bind() == omp_proc_bind_false || omp_get_num_places() == 0)
    return sched_getaffinity(0, sizeof mine, &mine) == 0;
  for (int p = 0; p < omp_get_num_places(); ++p) {
    std::vector<int> ids(static_cast<size_t>(omp_get_place_num_procs(p)));
    omp_get_place_proc_ids(p, ids.data());
    for (int id : ids)
      if (id >= 0 && id < CPU_SETSIZE) CPU_SET(id, &mine);
  }
  return CPU_COUNT(&mine) > 0;
}

// The CPUs the launcher's process on this node may run on: the ranks'
// parent (mpirun, its daemon, Hydra's proxy), at most the CPUs Slurm gave
// the job here (slurmstepd may run on the whole node). 0 when unknown (a
// rank whose parent has gone belongs to init).
int launcher_cpus() {
  cpu_set_t parent;
  CPU_ZERO(&parent);
  const pid_t ppid = getppid();
  if (ppid <= 1 || sched_getaffinity(ppid, sizeof parent, &parent) != 0) return 0;
  int cpus = CPU_COUNT(&parent);
  if (const char* slurm = std::getenv("SLURM_CPUS_ON_NODE"); slurm && std::atoi(slurm) > 0)
    cpus = std::min(cpus, std::atoi(slurm));
  return cpus;
}

}  // namespace

NodeCpus node_cpus(MPI_Comm node) {
  NodeCpus c;
  cpu_set_t mine;
  const bool known = rank_cpus(mine);
  c.launcher = launcher_cpus();
  MPI_Comm_size(node, &c.ranks);
  std::vector<cpu_set_t> all(static_cast<size_t>(c.ranks));
  check_mpi(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, node), "MPI_Allgather");
  if (!known) {  // past cpu_set_t's 1024 CPUs
    c.share = std::max(1, int(std::thread::hardware_concurrency()) / c.ranks);
    c.launcher = 0;
    return c;
  }
  // Ranks bound to cores of their own share nothing; unbound ones share all.
  int sharing = 0;
  cpu_set_t used;
  CPU_ZERO(&used);
  for (cpu_set_t& other : all) {
    cpu_set_t both;
    CPU_AND(&both, &mine, &other);
    sharing += CPU_COUNT(&both) > 0;
    CPU_OR(&used, &used, &other);
  }
  c.used = CPU_COUNT(&used);
  c.share = std::max(1, CPU_COUNT(&mine) / std::max(1, sharing));
  return c;
}

}  // namespace chatty::mpi
