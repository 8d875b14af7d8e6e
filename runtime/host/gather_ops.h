// A host device's mechanisms for the gather driver
// (runtime/drivers/gather.h). Peers read only published values, so owners
// send those: a received record is two stores, no division and no replica
// of the values to keep. The owned vertices are blocks on the device's worklist, which
// idle peers help empty (work migration), so a slowed device holds the
// others less.
//
// With per-edge messages (the baseline SendAll is measured against), an
// owner sends its published value along every out-edge to another device,
// to the target's owner, which adds what arrives to the sum over its local
// in-neighbours; its replica of peers' published values is then zero.
//
// Between ranks, devices help each other too (runtime/host/remote_gather.h):
// each device keeps its published values, its owned values and its rows of
// in-edges in memory exposed to the other ranks, and a peer there that ran
// out of work computes blocks of them. Programs that update in place
// (monotone) and per-edge messages keep their blocks to the owner's rank.
#pragma once

#include <omp.h>

#include <cmath>
#include <memory>

#include "kernels/cpu/gather_pull.h"
#include "runtime/base/status.h"
#include "runtime/drivers/gather.h"
#include "runtime/engine/device_context.h"
#include "runtime/engine/family.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/host/remote_gather.h"
#include "runtime/host/sum_layout.h"
#include "runtime/migration/work_migration.h"

namespace chatty::host {

template <typename V>
using GatherBoard = MigrationBoard<cpu::GatherTask<V>>;

template <typename P>
class GatherOps {
 public:
  static constexpr Family kFamily = Family::kGather;  // the driver that runs it (runtime/engine/run_program.h)
  using V = typename P::Value;
  // A block a local peer computes reads the owner's arrays from another
  // core's cache, so it costs the peer more than it saves the owner unless
  // the owner is well behind: the owner's last blocks stay its own. Peers
  // on other ranks fetch a block's rows whatever it is, and keep to the
  // run's migrate_threshold.
  static constexpr uint32_t kKeepBlocks = 8;
  // With `exposed` (peers on other ranks migrate this device's blocks and
  // it theirs; every device of the run has one or none), the device's
  // region there holds its gather, and `cache_bytes` bounds what it keeps
  // of the blocks it fetched.
  // `layout` picks rows or tiles where the device may use tiles
  // (runtime/host/sum_layout.h); elsewhere it reads rows.
  GatherOps(DeviceContext<V>& c, const GraphChunk& g, const P& prog, GatherBoard<V>& board, bool per_edge = false,
            ExposedMemory* exposed = nullptr, size_t cache_bytes = 0, CpuGather layout = CpuGather::kRows)
      : c_(c),
        g_(g),
        prog_(prog),
        board_(board),
        per_edge_(per_edge && !c.solo()),
        varying_rows_(rows_vary(g.in)),
        exposed_(exposed) {
    CHATTY_CHECK(!exposed || (!P::kMonotone && !per_edge_), "blocks migrate across ranks only for Jacobi SendAll");
    tiles_asked_ = layout == CpuGather::kTiles;
    if (!exposed_ && tiles_possible<P>(layout, c.solo(), g.in, g.out, g.n))
      tiles_rule_ = layout == CpuGather::kTiles ? TilesRule::kNow
                    : g.n >= kTilesMinVertices && !in_edges_local(g.in) && tiles_fit(g.out.num_edges())
                        ? TilesRule::kWhenTheyPay
                        : TilesRule::kNever;
    if (exposed_)
      remote_ = std::make_unique<RemoteGather<P>>(*exposed_, c.partition(), g.n, g.out_degree, prog,
                                                  vid_t(cpu::kDenseGrain), cache_bytes);
  }

  double start() {
    V *place = nullptr, *next_place = nullptr;
    if (exposed_) {
      std::byte* region = exposed_->local(c_.d);
      const GatherRegion<V> r(g_.n, c_.hi - c_.lo);  // expose_gather laid it out
      place = reinterpret_cast<V*>(region + r.contrib[0]);
      next_place = reinterpret_cast<V*>(region + r.contrib[1]);
      exposed_contrib_ = place;
      own_ = reinterpret_cast<V*>(region + r.val);
      std::copy(c_.values.begin() + c_.lo, c_.values.begin() + c_.hi, own_);
    }
    // All vertices: the global dangling mass.
    state_ = cpu::gather_init(g_.n, g_.out_degree, prog_, c_.values.data(), place, next_place);
    if (per_edge_) {
      received_.assign(size_t(c_.hi - c_.lo), 0.0);
      for_each_crossing_edge([&](int peer, vid_t, vid_t) { ++bound_[size_t(peer)]; });
    }
    return state_.dangling;
  }

  void merge(int parity) {
    if (!per_edge_) {
      c_.for_each_received(parity,
                           [&](vid_t v, V contribution) { state_.contrib[v] = state_.next_contrib[v] = contribution; });
      return;
    }
    // The first superstep reads every replica's initial values; from the
    // second on, what peers' vertices publish arrives as partial sums.
    if (merges_++ == 1) forget_peers_values();
    std::fill(received_.begin(), received_.end(), 0.0);
    c_.for_each_received(parity, [&](vid_t v, V contribution) { received_[v - c_.lo] += contribution; });
  }

  void gather(double dangling) {
    c_.begin(kCompute);
    state_.dangling = dangling;
    if constexpr (P::kSums && !P::kMonotone) {
      if (tiles_rule_ == TilesRule::kNow) lay_out_tiles();  // in the superstep's time
      if (tiles_) {
        gather_over_tiles();
        return;
      }
    }
    // A monotone program updates in place (Gauss-Seidel): fewer supersteps.
    V* next = P::kMonotone ? state_.contrib : state_.next_contrib;
    // Values where peers on other ranks reach them, when they may help.
    V* val = exposed_ ? own_ - c_.lo : c_.values.data();
    if (exposed_) {
      write_gather_header(exposed_->local(c_.d), state_.contrib == exposed_contrib_ ? 0 : 1, dangling,
                          seconds_per_block_);
      exposed_->sync();
    }
    board_.open(c_.d,
                {val, state_.contrib, next, state_.dangling, &g_.in, g_.out_degree,
                 per_edge_ ? received_.data() : nullptr, varying_rows_},
                c_.lo, c_.hi, vid_t(cpu::kDenseGrain), kKeepBlocks,
                /*local_only=*/true);
    cpu::GatherSums sums;
    auto work = [&](const cpu::GatherTask<V>& t, vid_t lo, vid_t hi, cpu::GatherSums& s) {
      cpu::gather_range(prog_, t, lo, hi, s);
    };
    const double t0 = omp_get_wtime();
    // Waits for the blocks peers took: they wrote into this device's buffers.
    board_.run_team(c_.d, sums, work, remote_.get());  // null: no help across ranks
    if (exposed_) {
      exposed_->sync();
      // What a block costs this device: peers on other ranks claim by it.
      seconds_per_block_ = seconds_per_block(omp_get_wtime() - t0, omp_get_max_threads(),
                                             std::ceil(double(c_.hi - c_.lo) / cpu::kDenseGrain));
    }
    end_superstep(sums);
  }

  void compact(int) {
    if (per_edge_) {
      c_.send_addressed(bound_.data(), [&](Update<V>** out, size_t* k) {
        for_each_crossing_edge([&](int peer, vid_t u, vid_t v) {
          out[peer][k[peer]++] = Update<V>{v, state_.contrib[u]};
        });
      });
      return;
    }
    const auto [first, last] = c_.partition().boundary_of(c_.d);  // owned boundary vertices
    c_.compact(first, size_t(last - first), [&](vid_t v) { return state_.contrib[v]; });
  }

  Agreed sync(int parity, bool pull) {
    c_.pull_ = pull;
    const Agreed a{c_.sync(parity, mine_)};
    if (tiles_rule_ == TilesRule::kWhenTheyPay && !a.failed()) {
      const double change = a.fold(kL1Slot);
      if (++supersteps_ >= 2 && tiles_pay(prog_, supersteps_, last_change_, change, a.fold(kDanglingSlot)))
        tiles_rule_ = TilesRule::kNow;
      last_change_ = change;
    }
    return a;
  }

  // After the last superstep: the owned values into the device's replica
  // (with exposed memory they lived in the region), and a lone device's
  // layout into the run's statistics.
  void finish() {
    if (c_.solo()) c_.stats().gather = tiles_ ? "tiles" : "rows";
    if (exposed_) std::copy(own_, own_ + (c_.hi - c_.lo), c_.values.begin() + c_.lo);
  }

 private:
  // Every vertex's superstep over the tiles, on the device's team (a lone
  // device: no peers to help or to send to).
  void gather_over_tiles() {
    cpu::GatherTask<V> task;
    task.val = c_.values.data();
    task.contrib = state_.contrib;
    task.next = state_.next_contrib;
    task.dangling_in = state_.dangling;
    task.degree = g_.out_degree;
    cpu::GatherSums sums;
    cpu::gather_tiles(prog_, *tiles_, task, sums);
    end_superstep(sums);
  }

  // The superstep's published values become the next one's input, and its
  // sums this device's status.
  void end_superstep(const cpu::GatherSums& sums) {
    if constexpr (!P::kMonotone) std::swap(state_.contrib, state_.next_contrib);
    mine_ = DeviceStatus{};
    mine_.at(kL1Slot) = sums.l1;
    mine_.edges = sums.edges;
    mine_.at(kDanglingSlot) = sums.dangling;
    mine_.updated = c_.hi - c_.lo;
    mine_.migrated = sums.migrated;
    mine_.migrated_blocks = sums.remote_blocks;
    c_.end();
  }

  // Where the second copy of the edges does not fit, the rule's choice
  // keeps the rows; the user's is an error.
  void lay_out_tiles() {
    tiles_rule_ = TilesRule::kNever;  // decided
    try {
      tiles_ = std::make_unique<cpu::SumTiles>(cpu::build_sum_tiles(g_.out, g_.n));
    } catch (const std::bad_alloc&) {
      if (tiles_asked_)
        throw Error("--cpu_gather=tiles: no memory for a second copy of the edges (" +
                    std::to_string(g_.out.num_edges() * sizeof(uint32_t) >> 20) +
                    " MiB); --cpu_gather=rows needs none");
    }
  }

  // Calls f(peer, u, v) for every out-edge u -> v from this device's
  // vertices to a vertex that `peer` owns.
  template <typename F>
  void for_each_crossing_edge(F f) const {
    const auto [first, last] = c_.partition().boundary_of(c_.d);
    const CsrChunk& out = g_.out;
    for (const vid_t* u = first; u != last; ++u)
      for (eid_t e = out.begin(*u); e < out.end(*u); ++e) {
        const vid_t v = out.targets[e];
        if (!c_.owns(v)) f(c_.partition().owner(v), *u, v);
      }
  }

  void forget_peers_values() {
    for (V* buf : {state_.contrib, state_.next_contrib}) {
      std::fill(buf, buf + c_.lo, V(0));
      std::fill(buf + c_.hi, buf + g_.n, V(0));
    }
  }

  DeviceContext<V>& c_;
  const GraphChunk& g_;
  const P& prog_;
  GatherBoard<V>& board_;
  cpu::GatherState<V> state_;
  DeviceStatus mine_;
  const bool per_edge_;
  const bool varying_rows_;       // rows_vary(g_.in)
  std::vector<double> received_;  // per-edge: per owned vertex, the sum of what peers sent it this superstep
  std::vector<size_t> bound_ = std::vector<size_t>(64);  // per-edge: records to each peer per superstep
  int merges_ = 0;
  ExposedMemory* exposed_;
  std::unique_ptr<RemoteGather<P>> remote_;  // with exposed_: computes blocks claimed from other ranks
  V* own_ = nullptr;                         // with exposed_: the owned values, in the region
  const V* exposed_contrib_ = nullptr;       // with exposed_: the first published-value buffer, in the region
  double seconds_per_block_ = 0;             // with exposed_: this device's, last superstep
  enum class TilesRule { kNever, kNow, kWhenTheyPay };
  TilesRule tiles_rule_ = TilesRule::kNever;
  bool tiles_asked_ = false;  // --cpu_gather=tiles
  int supersteps_ = 0;        // kWhenTheyPay: supersteps synced
  double last_change_ = 0;    // kWhenTheyPay: the change the last of them agreed
  std::unique_ptr<cpu::SumTiles> tiles_;
};

}  // namespace chatty::host
