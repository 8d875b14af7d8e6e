// host_read: each receiver copies its peers' buffers into its slots (its
// cache gets the data it is about to merge). Any pair of host devices
// connects.
#include <memory>

#include "comm/host_transports.h"
#include "comm/transport_table.h"

namespace chatty {
namespace {

class HostReadByReceiver : public Transport {
 public:
  const char* name() const override { return comm_name(Comm::kHostRead); }
  bool can_connect(int, int) const override { return true; }
  bool receiver_driven() const override { return true; }
  void exchange(Mailboxes& mb, int d, int parity) override {
    for (int peer = 0; peer < mb.devices(); ++peer)
      if (peer != d) {
        const Slot& s = mb.outgoing(peer, parity, d);
        mb.recv(parity, d, peer).assign(s.data, s.count, mb.item_bytes());
      }
  }
};

}  // namespace

std::unique_ptr<Transport> make_host_read_transport() { return std::make_unique<HostReadByReceiver>(); }

}  // namespace chatty
