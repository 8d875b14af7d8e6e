// make_host_transport and the fixed policy (comm/transport.h).
#include <memory>
#include <string>

#include "comm/host_transports.h"
#include "runtime/status.h"

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
  if (comm == Comm::kHost) return make_host_copy_transport();
  if (comm == Comm::kHostRead) return make_host_read_transport();
  if (comm == Comm::kHostView || comm == Comm::kAuto) return make_host_view_transport();
  throw Error(std::string("--comm=") + comm_name(comm) +
              " is not available for host devices (host, host_read or host_view; nccl, p2p and uva need the "
              "CUDA backend; mpi_put and mpi_alltoallv connect ranks started by mpirun)");
}

std::unique_ptr<TransportPolicy> make_fixed_policy(std::unique_ptr<Transport> t) {
  return std::make_unique<FixedPolicy>(std::move(t));
}

}  // namespace chatty
