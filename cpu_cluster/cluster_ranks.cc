// The engine's Ranks over the inter-node layer's functions.
#include "cpu_cluster/cluster.h"

namespace chatty {

namespace {

class ClusterRanks final : public Ranks {
 public:
  ClusterPlace place(int) const override { return *cluster(); }
  bool is_cluster() const override { return true; }
  int node_rank() const override { return node_local_rank(); }
  double max(double value) override { return cluster_max(value); }
  void barrier() override { cluster_barrier(); }
  std::string agree_error(const std::string& mine) override { return cluster_agree_error(mine); }
  void gather(void* values, size_t item_bytes, const uint64_t* begin) override {
    cluster_gather(values, item_bytes, begin);
  }
  void sum(uint64_t* values, size_t n) override { cluster_sum(values, n); }
  void sum(double* values, size_t n) override { cluster_sum(values, n); }
  void reset_ops() override { cluster_reset_ops(); }
  std::vector<uint64_t> ops() override { return cluster_ops(); }
  void note_share() override { cluster_note_share(); }
  void note_results() override { cluster_note_results(); }
  double watch_seconds() override { return cluster_watch_seconds(); }
  void taken_back(int thief_rank) override { cluster_taken_back(thief_rank); }
  double fault_thief_stall_s() override { return cluster_fault_take_thief_stall_s(); }
  std::unique_ptr<Fabric> make_fabric(Net net, int) override { return make_cluster_fabric(*cluster(), net); }
  ExposedMemory& exposed(const ClusterPlace& place, const std::vector<size_t>& bytes) override {
    return cluster_exposed(place, bytes);
  }
  std::unique_ptr<Transport> make_transport(const ClusterPlace& place, const RankTransportAsk& a) override {
    return make_cluster_transport(place, a.comm, a.net, a.slot_records, a.item_bytes, a.ring_bytes, a.batch_bytes,
                                  a.small_bytes, a.lanes, a.put_cap);
  }

 protected:
  void end_job(int code) override { cluster_abort(code); }
};

}  // namespace

Ranks& cluster_ranks() {
  if (!cluster()) return one_process();
  static ClusterRanks ranks;
  return ranks;
}

}  // namespace chatty
