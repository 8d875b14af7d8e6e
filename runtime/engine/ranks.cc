#include "runtime/engine/ranks.h"

#include "runtime/base/status.h"

namespace chatty {

namespace {

class OneProcess final : public Ranks {
 public:
  ClusterPlace place(int devices) const override {
    ClusterPlace p;
    p.local = devices;
    return p;
  }
  bool is_cluster() const override { return false; }
  int node_rank() const override { return 0; }
  double max(double value) override { return value; }
  void barrier() override {}
  std::string agree_error(const std::string& mine) override { return mine; }
  void gather(void*, size_t, const uint64_t*) override {}
  void sum(uint64_t*, size_t) override {}
  void sum(double*, size_t) override {}
  void reset_ops() override {}
  std::vector<uint64_t> ops() override { return {}; }
  void note_share() override {}
  void note_results() override {}
  double watch_seconds() override { return 0; }
  void taken_back(int) override {}
  double fault_thief_stall_s() override { return 0; }
  std::unique_ptr<Fabric> make_fabric(Net, int devices) override { return make_thread_fabric(devices); }
  ExposedMemory& exposed(const ClusterPlace&, const std::vector<size_t>&) override {
    throw Error("one process exposes no memory to other ranks (internal error)");
  }
  std::unique_ptr<Transport> make_transport(const ClusterPlace&, const RankTransportAsk&) override {
    throw Error("one process has no transport between ranks (internal error)");
  }

 protected:
  void end_job(int) override {}
};

}  // namespace

Ranks& one_process() {
  static OneProcess alone;
  return alone;
}

}  // namespace chatty
