// nccl: every device broadcasts its buffer as root into the peers' slots,
// grouped, one call per device thread (the ChattyGraph paper's algorithm 1);
// libnccl.so.2 is opened at run time. A pair connects if its GPUs differ.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <string>

#include "comm/gpu/cuda_buffers.cuh"
#include "comm/gpu_transports.h"
#include "comm/transport_table.h"

namespace chatty {
namespace {

using gpu_comm::Pinned;
using gpu_comm::stream_of;

// The slice of NCCL used here, resolved from libnccl.so.2 at run time.
class NcclTransport : public Transport {
  using Comm = struct ncclComm*;

 public:
  explicit NcclTransport(const std::vector<int>& gpu_of) : gpu_of_(gpu_of) {
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
  const char* name() const override { return comm_name(chatty::Comm::kNccl); }
  bool can_connect(int from, int to) const override { return nccl_connects(gpu_of_, from, to); }
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
  std::vector<int> gpu_of_;
};

}  // namespace

std::unique_ptr<Transport> make_nccl_transport(const std::vector<int>& gpu_of) {
  return std::make_unique<NcclTransport>(gpu_of);
}

bool nccl_connects(const std::vector<int>& gpu_of, int from, int to) {
  return gpu_of[size_t(from)] != gpu_of[size_t(to)];
}

}  // namespace chatty
