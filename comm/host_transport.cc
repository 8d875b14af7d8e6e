// Host transports: devices are teams of CPU threads sharing memory, so an
// exchange is a memcpy per (sender, receiver) pair. Which side copies
// changes who waits on whom: the sender writes P-1 slots (its cache holds
// the source), or each receiver reads P-1 buffers (its cache gets the data
// it is about to merge).
#include <memory>

#include "comm/transport.h"
#include "runtime/status.h"

namespace chatty {
namespace {

class HostCopyBySender : public Transport {
 public:
  const char* name() const override { return "host"; }
  bool can_connect(int, int) const override { return true; }
  void exchange(Mailboxes& mb, int d, int parity) override {
    const Slot& s = mb.send(d, parity);
    for (int peer = 0; peer < mb.devices(); ++peer)
      if (peer != d) mb.recv(parity, peer, d).assign(s.data, s.count, mb.item_bytes());
  }
};

class HostReadByReceiver : public Transport {
 public:
  const char* name() const override { return "host_read"; }
  bool can_connect(int, int) const override { return true; }
  bool receiver_driven() const override { return true; }
  void exchange(Mailboxes& mb, int d, int parity) override {
    for (int peer = 0; peer < mb.devices(); ++peer)
      if (peer != d) {
        const Slot& s = mb.send(peer, parity);
        mb.recv(parity, d, peer).assign(s.data, s.count, mb.item_bytes());
      }
  }
};

// Zero copy: each receiver's slot is re-pointed at the sender's buffer and
// its merge reads the records in place, as UVA does on GPUs. The sender
// writes that buffer again only two supersteps later (the send side is
// double-buffered by parity), after every receiver has merged it.
class HostViewOfSender : public Transport {
 public:
  const char* name() const override { return "host_view"; }
  bool can_connect(int, int) const override { return true; }
  bool receiver_driven() const override { return true; }
  void exchange(Mailboxes& mb, int d, int parity) override {
    for (int peer = 0; peer < mb.devices(); ++peer)
      if (peer != d) {
        const Slot& s = mb.send(peer, parity);
        Slot& r = mb.recv(parity, d, peer);
        r.data = s.data;
        r.count = s.count;
      }
  }
};

class FixedPolicy : public TransportPolicy {
 public:
  explicit FixedPolicy(std::unique_ptr<Transport> t) : t_(std::move(t)) {}
  Transport& choose(DataClass, size_t) override { return *t_; }
  void prepare(Mailboxes& mb, int d) override { t_->prepare(mb, d); }
  std::string describe() const override { return std::string(t_->name()) + " for every data class (fixed)"; }

 private:
  std::unique_ptr<Transport> t_;
};

}  // namespace

std::unique_ptr<Transport> make_host_transport(Comm comm) {
  if (comm == Comm::kHost) return std::make_unique<HostCopyBySender>();
  if (comm == Comm::kHostRead) return std::make_unique<HostReadByReceiver>();
  if (comm == Comm::kHostView || comm == Comm::kAuto) return std::make_unique<HostViewOfSender>();
  throw Error(std::string("--comm=") + comm_name(comm) +
              " is not available for host devices (host, host_read or host_view; nccl, p2p and uva need the "
              "CUDA backend)");
}

std::unique_ptr<TransportPolicy> make_fixed_policy(std::unique_ptr<Transport> t) {
  return std::make_unique<FixedPolicy>(std::move(t));
}

}  // namespace chatty
