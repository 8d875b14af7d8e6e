// GPU transports and the topology-driven policy (see gpu_transports.h).
// Each device's driving thread calls exchange() for its own device only,
// so per-device state (staging buffers, peer-access flags) needs no lock;
// every exchange ends with the device's stream synchronised, so after the
// runtime's barrier the peers' slots hold the data.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <map>
#include <mutex>

#include "comm/gpu_transports.h"
#include "kernels/cuda/cuda_check.h"
#include "topology/library.h"
#include "topology/policy.h"
#include "topology/probe.h"

namespace chatty {
namespace {

cudaStream_t stream_of(Mailboxes& mb, int d) { return static_cast<cudaStream_t>(mb.endpoint(d).stream); }

// Pinned host memory that grows on demand (one per device and parity).
struct Pinned {
  std::byte* p = nullptr;
  size_t bytes = 0;
  void reserve(size_t need) {
    if (need <= bytes) return;
    std::byte* old = p;
    p = nullptr, bytes = 0;  // a failed free leaves nothing to free twice
    if (old) CHATTY_CUDA(cudaFreeHost(old));
    CHATTY_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&p), need, cudaHostAllocMapped | cudaHostAllocPortable));
    bytes = need;
  }
  ~Pinned() {
    if (p) cudaFreeHost(p);
  }
};

class UvaTransport : public Transport {
 public:
  explicit UvaTransport(int devices) : mapped_(size_t(2 * devices)) {}
  const char* name() const override { return "uva"; }
  bool can_connect(int, int) const override { return true; }
  void prepare(Mailboxes& mb, int d) override {
    if (mb.endpoint(d).space == MemorySpace::kMapped) return;  // compaction writes mapped memory itself
    for (int parity = 0; parity < 2; ++parity)
      mapped_[size_t(parity * mb.devices() + d)].reserve(std::max<size_t>(mb.send(d, parity).capacity, 1));
  }
  void exchange(Mailboxes& mb, int d, int parity) override {
    Slot& s = mb.send(d, parity);
    std::byte* readable = s.data;
    if (mb.endpoint(d).space != MemorySpace::kMapped) {  // compaction wrote device memory: one copy out
      Pinned& m = mapped_[size_t(parity * mb.devices() + d)];
      m.reserve(std::max<size_t>(s.capacity, 1));
      const size_t bytes = s.count * mb.item_bytes();
      if (bytes) CHATTY_CUDA(cudaMemcpyAsync(m.p, s.data, bytes, cudaMemcpyDefault, stream_of(mb, d)));
      CHATTY_CUDA(cudaStreamSynchronize(stream_of(mb, d)));
      void* dev = nullptr;
      CHATTY_CUDA(cudaHostGetDevicePointer(&dev, m.p, 0));
      readable = static_cast<std::byte*>(dev);
    }
    for (int r = 0; r < mb.devices(); ++r)
      if (r != d) {
        Slot& rs = mb.recv(parity, r, d);
        rs.data = readable;  // read in place by r's merge kernel
        rs.count = s.count;
      }
  }

 private:
  std::vector<Pinned> mapped_;
};

class P2pTransport : public Transport {
 public:
  explicit P2pTransport(std::vector<int> gpu_of) : gpu_of_(std::move(gpu_of)), enabled_(gpu_of_.size(), 0) {}
  const char* name() const override { return "p2p"; }
  bool can_connect(int from, int to) const override {
    int ok = 0;
    return gpu_of_[size_t(from)] == gpu_of_[size_t(to)] ||
           (cudaDeviceCanAccessPeer(&ok, gpu_of_[size_t(from)], gpu_of_[size_t(to)]) == cudaSuccess && ok);
  }
  void exchange(Mailboxes& mb, int d, int parity) override {
    enable_peers(d);
    const Slot& s = mb.send(d, parity);
    const size_t bytes = s.count * mb.item_bytes();
    for (int r = 0; r < mb.devices(); ++r) {
      if (r == d) continue;
      Slot& rs = mb.recv(parity, r, d);
      rs.count = s.count;
      if (gpu_of_[size_t(r)] == gpu_of_[size_t(d)]) {
        // Virtual devices on one GPU: the receiver's merge kernel reads the
        // sender's buffer in place (it stays untouched until both have
        // passed the next superstep's barriers: sends are double-buffered).
        rs.data = s.data;
        continue;
      }
      rs.data = rs.storage;
      if (!bytes) continue;
      if (mb.endpoint(d).space == MemorySpace::kDevice)
        CHATTY_CUDA(
            cudaMemcpyPeerAsync(rs.storage, gpu_of_[size_t(r)], s.data, gpu_of_[size_t(d)], bytes, stream_of(mb, d)));
      else
        CHATTY_CUDA(cudaMemcpyAsync(rs.storage, s.data, bytes, cudaMemcpyDefault, stream_of(mb, d)));
    }
    CHATTY_CUDA(cudaStreamSynchronize(stream_of(mb, d)));
  }

 private:
  // Direct access to every other GPU that allows it (else the runtime stages).
  void enable_peers(int d) {
    if (enabled_[size_t(d)]) return;
    enabled_[size_t(d)] = 1;
    const int mine = gpu_of_[size_t(d)];
    for (int other : gpu_of_) {
      int ok = 0;
      if (other == mine) continue;
      if (cudaDeviceCanAccessPeer(&ok, mine, other) != cudaSuccess || !ok) {
        (void)cudaGetLastError();  // else a later launch check would report it
        continue;
      }
      const cudaError_t e = cudaDeviceEnablePeerAccess(other, 0);
      // Already on, or past the peer limit (copies then go through the driver's staging).
      if (e == cudaErrorPeerAccessAlreadyEnabled || e == cudaErrorTooManyPeers)
        (void)cudaGetLastError();
      else
        CHATTY_CUDA(e);
    }
  }
  std::vector<int> gpu_of_;
  std::vector<char> enabled_;
};

class HostStagedTransport : public Transport {
 public:
  explicit HostStagedTransport(int devices) : stage_(size_t(devices)) {}
  const char* name() const override { return "host"; }
  bool can_connect(int, int) const override { return true; }
  void prepare(Mailboxes& mb, int d) override {
    for (int parity = 0; parity < 2; ++parity)
      stage_[size_t(d)].reserve(std::max<size_t>(mb.send(d, parity).capacity, 1));
  }
  void exchange(Mailboxes& mb, int d, int parity) override {
    const Slot& s = mb.send(d, parity);
    const size_t bytes = s.count * mb.item_bytes();
    Pinned& st = stage_[size_t(d)];
    st.reserve(std::max<size_t>(s.capacity, 1));
    if (bytes) CHATTY_CUDA(cudaMemcpyAsync(st.p, s.data, bytes, cudaMemcpyDefault, stream_of(mb, d)));
    for (int r = 0; r < mb.devices(); ++r) {
      if (r == d) continue;
      Slot& rs = mb.recv(parity, r, d);
      rs.data = rs.storage;
      rs.count = s.count;
      if (bytes) CHATTY_CUDA(cudaMemcpyAsync(rs.storage, st.p, bytes, cudaMemcpyDefault, stream_of(mb, d)));
    }
    CHATTY_CUDA(cudaStreamSynchronize(stream_of(mb, d)));
  }

 private:
  std::vector<Pinned> stage_;
};

// The slice of NCCL used here, resolved from libnccl.so.2 at run time.
class NcclTransport : public Transport {
  using Comm = struct ncclComm*;

 public:
  explicit NcclTransport(const std::vector<int>& gpu_of) {
    for (size_t i = 0; i < gpu_of.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        CHATTY_CHECK(gpu_of[i] != gpu_of[j], "--comm=nccl needs every device on its own GPU");
    lib_ = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    CHATTY_CHECK(lib_, "--comm=nccl: libnccl.so.2 not found (install NCCL or use --comm=p2p)");
    init_all_ = reinterpret_cast<int (*)(Comm*, int, const int*)>(dlsym(lib_, "ncclCommInitAll"));
    bcast_ = reinterpret_cast<int (*)(const void*, void*, size_t, int, int, Comm, cudaStream_t)>(
        dlsym(lib_, "ncclBroadcast"));
    group_start_ = reinterpret_cast<int (*)()>(dlsym(lib_, "ncclGroupStart"));
    group_end_ = reinterpret_cast<int (*)()>(dlsym(lib_, "ncclGroupEnd"));
    destroy_ = reinterpret_cast<int (*)(Comm)>(dlsym(lib_, "ncclCommDestroy"));
    error_ = reinterpret_cast<const char* (*)(int)>(dlsym(lib_, "ncclGetErrorString"));
    CHATTY_CHECK(init_all_ && bcast_ && group_start_ && group_end_ && destroy_ && error_,
                 "--comm=nccl: libnccl.so.2 lacks the broadcast API");
    comms_.resize(gpu_of.size());
    check(init_all_(comms_.data(), int(gpu_of.size()), gpu_of.data()), "ncclCommInitAll");
  }
  ~NcclTransport() override {
    for (Comm c : comms_)
      if (c) destroy_(c);
  }
  const char* name() const override { return "nccl"; }
  bool can_connect(int from, int to) const override { return from != to; }
  void exchange(Mailboxes& mb, int d, int parity) override {
    check(group_start_(), "ncclGroupStart");
    for (int root = 0; root < mb.devices(); ++root) {
      const size_t bytes = mb.send(root, parity).count * mb.item_bytes();  // known to all after the status barrier
      if (!bytes) continue;
      std::byte* buf = root == d ? mb.send(d, parity).data : mb.recv(parity, d, root).storage;
      check(bcast_(buf, buf, bytes, /*ncclInt8*/ 0, root, comms_[size_t(d)], stream_of(mb, d)), "ncclBroadcast");
    }
    check(group_end_(), "ncclGroupEnd");
    for (int root = 0; root < mb.devices(); ++root)
      if (root != d) {
        Slot& rs = mb.recv(parity, d, root);
        rs.data = rs.storage;
        rs.count = mb.send(root, parity).count;
      }
    CHATTY_CUDA(cudaStreamSynchronize(stream_of(mb, d)));
  }

 private:
  void check(int r, const char* what) const {
    if (r != 0) throw Error(std::string(what) + " failed: " + (error_ ? error_(r) : "NCCL error"));
  }
  void* lib_ = nullptr;
  int (*init_all_)(Comm*, int, const int*) = nullptr;
  int (*bcast_)(const void*, void*, size_t, int, int, Comm, cudaStream_t) = nullptr;
  int (*group_start_)() = nullptr;
  int (*group_end_)() = nullptr;
  int (*destroy_)(Comm) = nullptr;
  const char* (*error_)(int) = nullptr;
  std::vector<Comm> comms_;
};

class FixedGpuPolicy : public TransportPolicy {
 public:
  explicit FixedGpuPolicy(std::unique_ptr<Transport> t) : t_(std::move(t)) {}
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
    by_name_["uva"] = std::make_unique<UvaTransport>(D);
    by_name_["p2p"] = std::make_unique<P2pTransport>(gpu_of);
    by_name_["host"] = std::make_unique<HostStagedTransport>(D);
    bool distinct = true;
    for (size_t i = 0; i < gpu_of.size(); ++i)
      for (size_t j = 0; j < i; ++j) distinct = distinct && gpu_of[i] != gpu_of[j];
    nccl_possible_ = distinct && D > 1;
  }
  Transport& choose(DataClass cls, size_t bytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    int band = 0;
    while ((size_t(4096) << band) < bytes && band < 40) ++band;
    auto it = cache_.find({int(cls), band});
    if (it == cache_.end()) {
      std::string name = "p2p";
      try {
        const topo::Decision dec = topo::decide(topo_, cls, bytes, gpu_of_);
        name = dec.choice == topo::Choice::kAsyncCopy ? "p2p" : topo::choice_name(dec.choice);
      } catch (const Error&) {  // no GPU in the probe's view: copies always work
      }
      if (name == "nccl" && nccl_possible_ && !by_name_.count(name)) {
        // Communicators only when the policy first wants NCCL (every device
        // thread waits here for the same answer).
        int current = 0;
        CHATTY_CUDA(cudaGetDevice(&current));
        try {
          by_name_["nccl"] = std::make_unique<NcclTransport>(gpu_of_);
          CHATTY_CUDA(cudaSetDevice(current));  // this thread drives its own GPU
        } catch (const Error& e) {
          (void)cudaSetDevice(current);
          nccl_possible_ = false;
          nccl_note_ = std::string("; nccl unavailable: ") + e.what();
        }
      }
      if (!by_name_.count(name)) name = "p2p";
      it = cache_.emplace(std::make_pair(int(cls), band), name).first;
      used_[name] = true;
    }
    return *by_name_.at(it->second);
  }
  void prepare(Mailboxes& mb, int d) override {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [name, t] : by_name_) t->prepare(mb, d);  // each touches only device d's buffers
  }
  std::string describe() const override {
    std::lock_guard<std::mutex> lock(mu_);
    std::string s = "auto (topology policy per exchange size):";
    for (auto& [name, _] : used_) s += " " + name;
    if (used_.empty()) s += " none used";
    return s + "; status data in mapped host memory (uva)" + nccl_note_;
  }

 private:
  std::vector<int> gpu_of_;
  topo::Topology topo_;
  std::map<std::string, std::unique_ptr<Transport>> by_name_;
  std::map<std::pair<int, int>, std::string> cache_;
  std::map<std::string, bool> used_;
  std::string nccl_note_;
  bool nccl_possible_ = false;
  mutable std::mutex mu_;
};

}  // namespace

std::unique_ptr<Transport> make_gpu_transport(Comm comm, const std::vector<int>& gpu_of) {
  const int D = int(gpu_of.size());
  if (comm == Comm::kUva) return std::make_unique<UvaTransport>(D);
  if (comm == Comm::kP2p) return std::make_unique<P2pTransport>(gpu_of);
  if (comm == Comm::kHost) return std::make_unique<HostStagedTransport>(D);
  if (comm == Comm::kNccl) return std::make_unique<NcclTransport>(gpu_of);
  throw Error(std::string("--comm=") + comm_name(comm) +
              " is not available for GPU devices (auto, uva, p2p, nccl or host)");
}

std::unique_ptr<TransportPolicy> make_gpu_policy(Comm comm, const std::vector<int>& gpu_of,
                                                 const topo::Topology* topology) {
  if (comm == Comm::kAuto) return std::make_unique<TopologyGpuPolicy>(gpu_of, topology);
  return std::make_unique<FixedGpuPolicy>(make_gpu_transport(comm, gpu_of));
}

}  // namespace chatty
