// A host device's mechanisms for the gather driver
// (runtime/drivers/gather.h). Peers read only published values, so owners
// send those: a received record is two stores, no division and no replica
// of the values to keep. The owned vertices are blocks on the device's worklist, which
// idle peers help empty (work migration), so a slowed device holds the
// others less.
#pragma once

#include "kernels/cpu/gather_pull.h"
#include "runtime/device_context.h"
#include "runtime/drivers/gather.h"
#include "runtime/graph_chunk.h"
#include "runtime/work_migration.h"

namespace chatty::host {

template <typename V>
using GatherBoard = MigrationBoard<cpu::GatherTask<V>>;

template <typename P>
class GatherOps {
 public:
  using V = typename P::Value;
  GatherOps(DeviceContext<V>& c, const GraphChunk& g, const P& prog, GatherBoard<V>& board)
      : c_(c), g_(g), prog_(prog), board_(board) {}

  double start() {
    state_ = cpu::gather_init(g_.n, g_.out_degree, prog_, c_.values.data());  // all vertices: the global dangling mass
    return state_.dangling;
  }

  void merge(int parity) {
    c_.for_each_received(parity,
                         [&](vid_t v, V contribution) { state_.contrib[v] = state_.next_contrib[v] = contribution; });
  }

  void gather(double dangling) {
    c_.begin(kCompute);
    state_.dangling = dangling;
    // A monotone program updates in place (Gauss-Seidel): fewer supersteps.
    V* next = P::kMonotone ? state_.contrib.data() : state_.next_contrib.data();
    board_.open(c_.d, {c_.values.data(), state_.contrib.data(), next, state_.dangling, &g_.in, g_.out_degree}, c_.lo,
                c_.hi, vid_t(cpu::kDenseGrain));
    cpu::GatherSums sums;
    auto work = [&](const cpu::GatherTask<V>& t, vid_t lo, vid_t hi, cpu::GatherSums& s) {
      cpu::gather_range(prog_, t, lo, hi, s);
    };
    board_.run_team(c_.d, sums, work);  // waits for the blocks peers took: they wrote into this device's buffers
    if constexpr (!P::kMonotone) state_.contrib.swap(state_.next_contrib);
    mine_ = DeviceStatus{};
    mine_.at(kL1Slot) = sums.l1;
    mine_.edges = sums.edges;
    mine_.at(kDanglingSlot) = sums.dangling;
    mine_.updated = c_.hi - c_.lo;
    mine_.migrated = sums.migrated;
    c_.end();
  }

  void compact(int) {
    const auto [first, last] = c_.partition().boundary_of(c_.d);  // owned boundary vertices
    c_.compact(first, size_t(last - first), [&](vid_t v) { return state_.contrib[v]; });
  }

  Agreed sync(int parity) { return Agreed{c_.sync(parity, mine_)}; }

 private:
  DeviceContext<V>& c_;
  const GraphChunk& g_;
  const P& prog_;
  GatherBoard<V>& board_;
  cpu::GatherState<V> state_;
  DeviceStatus mine_;
};

}  // namespace chatty::host
