#include "cpu_cluster/mpi/node_cpus.h"

#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "cpu_cluster/mpi/mpi_util.h"

namespace chatty::mpi {

int node_share_of_cpus() {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  const bool known = sched_getaffinity(0, sizeof mine, &mine) == 0;
  MPI_Comm node;
  check_mpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int here = 0;
  MPI_Comm_size(node, &here);
  std::vector<cpu_set_t> all(static_cast<size_t>(here));
  check_mpi(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, node), "MPI_Allgather");
  MPI_Comm_free(&node);
  if (!known) return std::max(1, int(std::thread::hardware_concurrency()) / here);  // past cpu_set_t's 1024 CPUs
  // Ranks bound to cores of their own share nothing; unbound ones share all.
  int sharing = 0;
  for (cpu_set_t& other : all) {
    cpu_set_t both;
    CPU_AND(&both, &mine, &other);
    sharing += CPU_COUNT(&both) > 0;
  }
  return std::max(1, CPU_COUNT(&mine) / std::max(1, sharing));
}

}  // namespace chatty::mpi
