// The inter-node layer in a build without MPI: every process runs alone.
#include <cstdlib>

#include "cpu_cluster/cluster.h"
#include "runtime/base/status.h"
#include "runtime/migration/exposed_memory.h"

namespace chatty {

bool cluster_built() { return false; }

bool cluster_windows_shared() { return false; }

const ClusterPlace* cluster_start(int, Net, std::optional<int> communicator) {
  CHATTY_CHECK(!communicator,
               "a communicator names MPI ranks, but this build has no MPI (install libopenmpi-dev and rebuild)");
  CHATTY_CHECK(!launched_as_ranks(),
               "started as one of several MPI ranks, but this build has no MPI (install libopenmpi-dev and rebuild)");
  return nullptr;
}
const ClusterPlace* cluster() { return nullptr; }
void cluster_abort(int code) { std::_Exit(code); }
std::string cluster_meet(const std::string&, double, bool) { return ""; }
FailedTogether cluster_fail_together(const std::string&, double) { return FailedTogether::kAlone; }

std::unique_ptr<Fabric> make_cluster_fabric(const ClusterPlace&, Net) {
  throw Error("this build has no MPI (internal error)");
}
std::unique_ptr<Transport> make_cluster_transport(const ClusterPlace&, Comm, Net, size_t, size_t, size_t, size_t,
                                                  size_t, int, size_t) {
  throw Error("this build has no MPI (internal error)");
}
ExposedMemory& cluster_exposed(const ClusterPlace&, const std::vector<size_t>&) {
  throw Error("this build has no MPI (internal error)");
}
void cluster_gather(void*, size_t, const uint64_t*) {}
void cluster_allgather(void*, size_t, const uint64_t*) {}
void cluster_or(void*, size_t) {}
void cluster_sum(uint64_t*, size_t) {}
void cluster_sum(double*, size_t) {}
std::string cluster_agree_error(const std::string& mine) { return mine; }
void cluster_throw_agreed(const std::string& mine) {
  if (!mine.empty()) throw AgreedError(mine);
}
double cluster_max(double value) { return value; }
void cluster_barrier() {}
void cluster_watch(double) {}
double cluster_watch_seconds() { return 0; }
void cluster_taken_back(int) {}
void cluster_note_share() {}
void cluster_note_results() {}
std::vector<int> cluster_ranks_differing(uint64_t) { return {}; }
void cluster_reset_ops() {}
std::vector<uint64_t> cluster_ops() { return {}; }
SwitchPoint cluster_switch_point(bool) { return {size_t(32) << 10, "built without MPI"}; }

}  // namespace chatty
