// GPU devices inside ranks, staged through host memory: a device's send
// buffers are mapped pinned host memory (the compaction kernel writes them
// over PCIe, and they are complete when its status is published), so the
// transport between ranks reads them as it reads a host device's; what it
// delivers lands in host memory (its rings, its messages) and is copied up
// into the device's receive slot before the device merges. Every pair goes
// this way, the rank's own GPUs too: the transport between ranks reads a
// same-rank sender's buffer in place.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "comm/gpu/cuda_buffers.cuh"
#include "comm/gpu_transports.h"
#include "runtime/base/status.h"

namespace chatty {
namespace {

using gpu_comm::stream_of;

class RankStagedTransport : public Transport {
 public:
  RankStagedTransport(std::unique_ptr<Transport> between, int devices)
      : between_(std::move(between)),
        name_(std::string(between_->name()) + " staged through host memory"),
        devices_(devices),
        slots_(size_t(2) * size_t(devices) * size_t(devices)) {}
  const char* name() const override { return name_.c_str(); }
  bool can_connect(int from, int to) const override { return between_->can_connect(from, to); }
  bool receiver_driven() const override { return between_->receiver_driven(); }
  uint64_t batches(int from, int to, size_t count) const override { return between_->batches(from, to, count); }

  void prepare(Mailboxes& mb, int d) override {
    CHATTY_CHECK(mb.endpoint(d).space == MemorySpace::kMapped,
                 "GPU devices in ranks send from mapped host memory (internal error)");
    for (int parity = 0; parity < 2; ++parity) {  // the host reads them where the GPU writes (unified addressing)
      const void* at = mb.send(d, parity).data;
      cudaPointerAttributes a{};
      CHATTY_CUDA(cudaPointerGetAttributes(&a, at));
      CHATTY_CHECK(
          a.type == cudaMemoryTypeHost && a.hostPointer == at,
          "device " + std::to_string(d) + ": its send buffer is not readable by the host at the GPU's address");
    }
    for (int parity = 0; parity < 2; ++parity)
      for (int peer = 0; peer < devices_; ++peer) {
        const Slot& r = mb.recv(parity, d, peer);
        slot(parity, d, peer) = Saved{r.storage, r.capacity};
      }
    between_->prepare(mb, d);
  }

  void exchange(Mailboxes& mb, int d, int parity) override {
    between_->exchange(mb, d, parity);
    // What arrived lies in the transport's host memory: up into the
    // device's own slots, which the merge kernel reads.
    for (int peer = 0; peer < devices_; ++peer) {
      if (peer == d) continue;
      Slot& r = mb.recv(parity, d, peer);
      const Saved& dev = slot(parity, d, peer);
      const size_t bytes = r.count * mb.item_bytes();
      CHATTY_CHECK(bytes <= dev.capacity, "device " + std::to_string(d) + ": " + std::to_string(r.count) +
                                              " records from device " + std::to_string(peer) +
                                              " exceed its receive slot (internal error)");
      if (bytes) CHATTY_CUDA(cudaMemcpyAsync(dev.storage, r.data, bytes, cudaMemcpyHostToDevice, stream_of(mb, d)));
      r.storage = r.data = dev.storage;
      r.capacity = dev.capacity;
    }
    // The transport reuses its host memory at the next exchange of this parity.
    CHATTY_CUDA(cudaStreamSynchronize(stream_of(mb, d)));
  }

 private:
  struct Saved {
    std::byte* storage = nullptr;
    size_t capacity = 0;
  };
  Saved& slot(int parity, int d, int peer) {
    return slots_[(size_t(parity) * size_t(devices_) + size_t(d)) * size_t(devices_) + size_t(peer)];
  }

  std::unique_ptr<Transport> between_;
  const std::string name_;
  const int devices_;
  std::vector<Saved> slots_;  // per parity, device and peer: the device's own receive slot
};

}  // namespace

std::unique_ptr<Transport> make_rank_staged_transport(std::unique_ptr<Transport> between_ranks, int devices) {
  return std::make_unique<RankStagedTransport>(std::move(between_ranks), devices);
}

}  // namespace chatty
