// host: staged through pinned host memory by the sender. Any pair connects.
#include <cuda_runtime.h>

#include "comm/gpu/cuda_buffers.cuh"
#include "comm/gpu_transports.h"
#include "comm/transport_table.h"

namespace chatty {
namespace {

using gpu_comm::Pinned;
using gpu_comm::stream_of;

class HostStagedTransport : public Transport {
 public:
  explicit HostStagedTransport(int devices) : stage_(size_t(devices)) {}
  const char* name() const override { return comm_name(Comm::kHost); }
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

}  // namespace

std::unique_ptr<Transport> make_host_staged_transport(const std::vector<int>& gpu_of) {
  return std::make_unique<HostStagedTransport>(int(gpu_of.size()));
}

}  // namespace chatty
