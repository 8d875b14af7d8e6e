// The per-rank counts of MPI operations (cpu_cluster/cluster.h's cluster_ops):
// relaxed atomics, since every device thread and ring lane of a rank
// issues operations; next to an MPI call an uncontended add is noise.
#include <atomic>
#include <memory>
#include <vector>

#include "cpu_cluster/mpi/mpi_util.h"

namespace chatty {
namespace {

std::unique_ptr<std::atomic<uint64_t>[]> g_counts;
size_t g_size = 0;

}  // namespace

namespace mpi {

void start_op_counts(int ranks) {
  g_size = size_t(ranks) * kMpiOps;
  g_counts = std::make_unique<std::atomic<uint64_t>[]>(g_size);
  cluster_reset_ops();
}

void count_op(MpiOp op, int target, uint64_t n) {
  if (g_counts) g_counts[size_t(target) * kMpiOps + size_t(op)].fetch_add(n, std::memory_order_relaxed);
}

}  // namespace mpi

void cluster_reset_ops() {
  for (size_t i = 0; i < g_size; ++i) g_counts[i].store(0, std::memory_order_relaxed);
}

std::vector<uint64_t> cluster_ops() {
  std::vector<uint64_t> v(g_size);
  for (size_t i = 0; i < g_size; ++i) v[i] = g_counts[i].load(std::memory_order_relaxed);
  return v;
}

}  // namespace chatty
