#include "cpu_cluster/mpi/node_cpus.h"

#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "cpu_cluster/mpi/mpi_util.h"

namespace chatty::mpi {

NodeCpus node_cpus() {
  NodeCpus c;
  cpu_set_t mine, parent;
  CPU_ZERO(&mine);
  CPU_ZERO(&parent);
  const bool known = sched_getaffinity(0, sizeof mine, &mine) == 0;
  if (sched_getaffinity(getppid(), sizeof parent, &parent) == 0) c.launcher = CPU_COUNT(&parent);
  MPI_Comm node;
  check_mpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  MPI_Comm_size(node, &c.ranks);
  std::vector<cpu_set_t> all(static_cast<size_t>(c.ranks));
  check_mpi(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, node), "MPI_Allgather");
  MPI_Comm_free(&node);
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
