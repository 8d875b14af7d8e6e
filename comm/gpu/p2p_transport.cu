// p2p: cudaMemcpyPeerAsync into every peer's receive slot, peer access
// enabled where the pair allows; a device-to-device copy between virtual
// devices on one GPU. Any pair connects.
#include <cuda_runtime.h>

#include "comm/gpu/cuda_buffers.cuh"
#include "comm/gpu_transports.h"
#include "comm/transport_table.h"

namespace chatty {
namespace {

using gpu_comm::Pinned;
using gpu_comm::stream_of;

class P2pTransport : public Transport {
 public:
  explicit P2pTransport(std::vector<int> gpu_of) : gpu_of_(std::move(gpu_of)), enabled_(gpu_of_.size(), 0) {}
  const char* name() const override { return comm_name(Comm::kP2p); }
  // Any pair: without peer access the driver stages the copy through the
  // host (slower, which the topology policy's costs know).
  bool can_connect(int, int) const override { return true; }
  // Peer access is enabled at setup, so no exchange pays for it.
  void prepare(Mailboxes&, int d) override { enable_peers(d); }
  void exchange(Mailboxes& mb, int d, int parity) override {
    enable_peers(d);  // a no-op after prepare
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

}  // namespace

std::unique_ptr<Transport> make_p2p_transport(const std::vector<int>& gpu_of) {
  return std::make_unique<P2pTransport>(gpu_of);
}

}  // namespace chatty
