// make_host_transport and the fixed policy (comm/transport.h).
#include <memory>
#include <string>
#include <utility>

#include "comm/host_transports.h"
#include "comm/transport_table.h"
#include "runtime/base/status.h"

namespace chatty {
namespace {

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
  check_serves(comm, World::kHostDevices);
  if (comm == Comm::kAuto) comm = decide_auto(World::kHostDevices);
  // The factories of the table's host entries (comm/transport_table.h).
  const std::pair<Comm, std::unique_ptr<Transport> (*)()> makers[] = {{Comm::kHostView, make_host_view_transport},
                                                                      {Comm::kHost, make_host_copy_transport},
                                                                      {Comm::kHostRead, make_host_read_transport}};
  for (const auto& [c, make] : makers)
    if (c == comm) return make();
  throw Error(std::string("--comm=") + comm_name(comm) + ": no factory for host devices (internal error)");
}

std::unique_ptr<TransportPolicy> make_fixed_policy(std::unique_ptr<Transport> t) {
  return std::make_unique<FixedPolicy>(std::move(t));
}

}  // namespace chatty
