#include "topology/gpu_policy.h"

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <string>

#include "comm/gpu_transports.h"
#include "comm/transport_table.h"
#include "kernels/cuda/cuda_check.h"
#include "topology/library.h"
#include "topology/policy.h"
#include "topology/probe.h"

namespace chatty {
namespace {

template <typename Connects>
bool connects_all(int devices, Connects connects) {
  for (int a = 0; a < devices; ++a)
    for (int b = 0; b < devices; ++b)
      if (a != b && !connects(a, b)) return false;
  return true;
}

class FixedGpuPolicy : public TransportPolicy {
 public:
  FixedGpuPolicy(std::unique_ptr<Transport> t, int devices) : t_(std::move(t)) {
    for (int a = 0; a < devices; ++a)
      for (int b = 0; b < devices; ++b)
        CHATTY_CHECK(a == b || t_->can_connect(a, b), std::string("--comm=") + t_->name() + " cannot connect devices " +
                                                          std::to_string(a) + " and " + std::to_string(b) +
                                                          " on these GPUs (no peer access; try --comm=auto)");
  }
  Transport& choose(DataClass, size_t) override { return *t_; }
  void prepare(Mailboxes& mb, int d) override { t_->prepare(mb, d); }
  std::string describe() const override {
    return std::string(t_->name()) + " for application data (fixed); status data in mapped host memory (uva)";
  }

 private:
  std::unique_ptr<Transport> t_;
};

// Per exchange, the topology policy's cheapest transport for the size.
// Every device asks with the same total, so all pick the same transport
// (NCCL needs every device in the call).
class TopologyGpuPolicy : public TransportPolicy {
 public:
  TopologyGpuPolicy(const std::vector<int>& gpu_of, const topo::Topology* topology) : gpu_of_(gpu_of) {
    if (topology) {
      topo_ = *topology;
    } else {
      topo_ = topo::probe();
      std::string why;
      topo::apply_cache(topo_, topo::default_cache_path(), &why);
    }
    topo::estimate_costs(topo_);
    const int D = int(gpu_of.size());
    // The table's GPU entries; the ones that need distinct GPUs (NCCL's
    // communicators) are opened only where the policy could pick them.
    for (const TransportInfo& t : transport_table())
      if (t.world == World::kGpuDevices && !t.policy_only && !t.distinct_gpus)
        by_comm_[t.comm] = make_gpu_transport(t.comm, gpu_of);
    nccl_possible_ = D > 1 && connects_all(D, [&](int a, int b) { return nccl_connects(gpu_of, a, b); });
  }
  Transport& choose(DataClass cls, size_t bytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    int band = 0;
    while ((size_t(4096) << band) < bytes && band < 40) ++band;
    auto it = cache_.find({int(cls), band});
    if (it == cache_.end()) {
      Comm comm = Comm::kP2p;
      try {
        const topo::Decision dec = topo::decide(topo_, cls, bytes, gpu_of_);
        comm = dec.choice == Comm::kCopyIn ? Comm::kP2p : dec.choice;
      } catch (const Error&) {  // no GPU in the probe's view: copies always work
      }
      if (comm == Comm::kNccl) open_nccl();  // prepare opened it where the policy could want it
      // A transport that cannot connect every pair of this placement is not a choice.
      if (!by_comm_.count(comm) ||
          !connects_all(int(gpu_of_.size()), [&](int a, int b) { return by_comm_.at(comm)->can_connect(a, b); }))
        comm = Comm::kP2p;
      it = cache_.emplace(std::make_pair(int(cls), band), comm).first;
      used_[comm_name(comm)] = true;
    }
    return *by_comm_.at(it->second);
  }
  // Before the run's timer: NCCL's communicators where some exchange size
  // would pick NCCL (the first device to get here opens them for all), and
  // each transport's buffers and peer access for device d.
  void prepare(Mailboxes& mb, int d) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (policy_wants_nccl()) open_nccl();
    for (auto& [comm, t] : by_comm_) t->prepare(mb, d);  // each touches only device d's buffers
  }
  std::string describe() const override {
    std::lock_guard<std::mutex> lock(mu_);
    std::string s = "auto (topology policy per exchange size):";
    for (auto& [name, _] : used_) s += " " + name;
    if (used_.empty()) s += " none used";
    return s + "; status data in mapped host memory (uva)" + nccl_note_;
  }

 private:
  // Whether the topology policy picks NCCL for application data of any
  // size a superstep can send (4 KB .. 64 GB). Callers hold mu_.
  bool policy_wants_nccl() const {
    if (!nccl_possible_ || by_comm_.count(Comm::kNccl)) return false;
    for (int band = 0; band <= 24; ++band) {
      try {
        if (topo::decide(topo_, DataClass::kApplication, size_t(4096) << band, gpu_of_).choice == Comm::kNccl)
          return true;
      } catch (const Error&) {
        return false;
      }
    }
    return false;
  }
  // NCCL's communicators, once (every device thread waits for the same
  // answer); a failure leaves NCCL out and says why. Callers hold mu_.
  void open_nccl() {
    if (!nccl_possible_ || by_comm_.count(Comm::kNccl)) return;
    int current = 0;
    CHATTY_CUDA(cudaGetDevice(&current));
    try {
      by_comm_[Comm::kNccl] = make_gpu_transport(Comm::kNccl, gpu_of_);
      CHATTY_CUDA(cudaSetDevice(current));  // this thread drives its own GPU
    } catch (const Error& e) {
      (void)cudaSetDevice(current);
      nccl_possible_ = false;
      nccl_note_ = std::string("; ") + comm_name(Comm::kNccl) + " unavailable: " + e.what();
    }
  }

  std::vector<int> gpu_of_;
  topo::Topology topo_;
  std::map<Comm, std::unique_ptr<Transport>> by_comm_;
  std::map<std::pair<int, int>, Comm> cache_;
  std::map<std::string, bool> used_;
  std::string nccl_note_;
  bool nccl_possible_ = false;
  mutable std::mutex mu_;
};

}  // namespace

std::unique_ptr<TransportPolicy> make_gpu_policy(Comm comm, const std::vector<int>& gpu_of,
                                                 const topo::Topology* topology) {
  if (comm == Comm::kAuto) return std::make_unique<TopologyGpuPolicy>(gpu_of, topology);
  return std::make_unique<FixedGpuPolicy>(make_gpu_transport(comm, gpu_of), int(gpu_of.size()));
}

}  // namespace chatty
