// uva: the sender copies its buffer into mapped pinned host memory once;
// receivers' merge kernels read it in place (zero copy). Any pair connects.
#include <cuda_runtime.h>

#include "comm/gpu/cuda_buffers.cuh"
#include "comm/gpu_transports.h"
#include "comm/transport_table.h"

namespace chatty {
namespace {

using gpu_comm::Pinned;
using gpu_comm::stream_of;

class UvaTransport : public Transport {
 public:
  explicit UvaTransport(int devices) : mapped_(size_t(2 * devices)) {}
  const char* name() const override { return comm_name(Comm::kUva); }
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

}  // namespace

std::unique_ptr<Transport> make_uva_transport(const std::vector<int>& gpu_of) {
  return std::make_unique<UvaTransport>(int(gpu_of.size()));
}

}  // namespace chatty
