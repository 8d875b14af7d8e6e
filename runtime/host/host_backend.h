// Host devices for the engine's shell (runtime/engine/run_program.h): one
// thread of an outer OpenMP team drives each device and its kernels run on
// a nested team of the device's threads; each superstep it
//   merges recv[parity] into its replica (owned vertices that change become
//   active) -> computes over its owned active vertices -> compacts changed
//   boundary vertices into its send buffer -> publishes status and meets the
//   others -> exchanges through the policy's transport -> meets again,
// until no device has work (PageRank: until the global L1 change < tolerance).
// Every device keeps the full value array but only its chunk of the edges
// (runtime/graph/graph_chunk.h); the exchange sends each device's updates to the
// peers that read them (all of them, or its readers: exchange_policy.h),
// so replicas of boundary vertices stay current for pull steps and a push
// offer reaches the vertex's owner. Idle devices take blocks of busy ones
// (work migration boards), across ranks through exposed memory.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <vector>

#include "runtime/base/agreed_error.h"
#include "runtime/base/interrupt.h"
#include "runtime/base/status.h"
#include "runtime/engine/device_context.h"
#include "runtime/engine/exchange_policy.h"
#include "runtime/engine/numa_binding.h"
#include "runtime/engine/ranks.h"
#include "runtime/engine/run_program.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/graph/partition.h"
#include "runtime/host/connectivity_ops.h"
#include "runtime/host/gather_ops.h"
#include "runtime/host/ordered_ops.h"
#include "runtime/host/traversal_ops.h"
#include "runtime/migration/exposed_memory.h"

namespace chatty::host {

// The machine's threads are split evenly between the devices this process
// drives.
template <typename P>
class HostBackend {
  using V = typename P::Value;
  static constexpr bool kInEdges = [] {
    if constexpr (P::kKind == ProgramKind::kGather)
      return true;
    else
      return P::kPullable;
  }();
  static constexpr bool kWeights = [] {
    if constexpr (P::kKind == ProgramKind::kGather)
      return false;
    else
      return P::kNeedsWeights;
  }();

 public:
  static constexpr Backend kBackend = Backend::kCpu;
  using Ops = DeviceOps<P, GatherOps<P>, OrderedOps<P>, TraversalOps<P>, ConnectivityOps<V>>;
  struct Device {
    Device(int d, const Partition& part, SuperstepSync& sync, MultiStats& stats, std::vector<V>& replica, vid_t n)
        : c(d, part, sync, stats, replica, n) {}
    DeviceContext<V> c;
    Ops ops;
  };

  HostBackend(const Graph& g, const P& prog, const Partition& part, const EngineOptions& opt, TransportPolicy& policy,
              MultiStats& stats, Ranks& ranks, const RunPlan<V>& plan)
      : g_(g),
        prog_(prog),
        part_(part),
        opt_(opt),
        stats_(stats),
        ranks_(ranks),
        place_(ranks.place(part.devices())),
        plan_(plan),
        D_(part.devices()),
        n_(g.num_vertices()),
        per_peer_(exchange_per_peer(opt.exchange, plan.family == Family::kLinking, D_, place_.ranks > 1)),
        per_edge_(messages_per_edge(opt.messages, sums_in_values<P>(), D_)),
        mb_(D_, sizeof(Update<V>)),
        fabric_(make_fabric()),
        sync_(*fabric_, mb_, policy, stats),
        chunks_(g, part, kInEdges, opt.chunk_copies, kWeights),
        replicas_(size_t(D_)),
        across_{opt.migrate_block, opt.migrate_threshold, ranks.watch_seconds(), &ranks},
        gather_board_(*fabric_, opt.migrate, across_, opt.straggler),
        push_board_(*fabric_, opt.migrate, across_, opt.straggler),
        pull_board_(*fabric_, opt.migrate, across_, opt.straggler),
        wcc_board_(*fabric_, opt.migrate, across_, opt.straggler) {
    mark_readers();
    stats.exchange = per_peer_ || per_edge_ ? "peer" : "broadcast";
    stats.messages = per_edge_ ? "per_edge" : "sendall";
    stats.structure_bytes = 0;
    for (int d = 0; d < D_; ++d) stats.structure_bytes = std::max(stats.structure_bytes, chunks_.bytes(d));
    check_straggler(opt.straggler, D_);
    for (int d = place_.first(); d < place_.first() + place_.local; ++d) policy.prepare(mb_, d);
    expose_for_migration();
  }

  template <typename F>
  void for_each_device(F f) {
    const int local = place_.local, first = place_.first();
    const int per_device = std::max(1, omp_get_max_threads() / local);
    const int saved_levels = omp_get_max_active_levels();
    omp_set_max_active_levels(2);
    // OMP_THREAD_LIMIT (or OMP_DYNAMIC) may give the team fewer threads
    // than devices: a device without its thread would leave the others
    // alone with part of the graph (a wrong answer) or waiting for it.
    std::atomic<int> team{local};
    if (local == 1) {
      // The device's team is the first level: nested teams are not pooled,
      // and starting one every superstep costs more than a small step.
      f(first);
    } else {
      const RunStopCarrier run;
#pragma omp parallel num_threads(local)
      {
        const RunStop carried = run.carry();
        if (omp_get_num_threads() != local) {
          team.store(omp_get_num_threads());
        } else {
          omp_set_num_threads(per_device);
          f(first + omp_get_thread_num());
        }
      }
    }
    omp_set_max_active_levels(saved_levels);
    if (team.load() != local)
      throw Error("the OpenMP runtime gave " + std::to_string(team.load()) +
                  (team.load() == 1 ? " thread" : " threads") + " to drive the " + std::to_string(local) + " devices" +
                  (place_.ranks > 1 ? " of this rank" : "") + ", one each (check OMP_THREAD_LIMIT and OMP_DYNAMIC)");
  }

  // A device that cannot start (its arrays do not fit in memory) records
  // why and returns null; all_up then keeps every device of the run, of
  // every rank, from running, and end() says why.
  std::unique_ptr<Device> start(int d) {
    try {
      return make_device(d);
    } catch (const std::bad_alloc&) {
      sync_.fail("out of memory", std::current_exception());
    } catch (const std::exception& e) {
      sync_.fail(e.what(), std::current_exception());
    }
    return nullptr;
  }

  bool all_up(int d, const Device* dev) {
    const bool all = sync_.all(d, dev != nullptr);
    if (d == place_.first()) all_up_ = all;
    return all;
  }
  Ops& ops(Device& dev) { return dev.ops; }

  // The first local device's replica becomes the result (no fresh array
  // to fault in): once every device is done reading it, the others copy
  // their chunks in.
  void finish(int d, Device& dev) {
    if constexpr (P::kKind == ProgramKind::kGather) dev.ops.visit([](auto& ops) { ops.finish(); });
    fabric_->barrier(d);
    const DeviceContext<V>& c = dev.c;
    if (d != place_.first())
      std::copy(c.values.begin() + c.lo, c.values.begin() + c.hi, replicas_[size_t(place_.first())].begin() + c.lo);
  }

  // Every rank is here when a device failed: a start failure is agreed in
  // all_up, and a failed status stops every rank at the same sync. So the
  // failing rank's reason reaches all, and rank 0 alone prints it.
  void end() {
    if (all_up_ && !sync_.stopped()) return;
    const std::string why = sync_.error().empty() ? "a device of the run failed (internal error)" : sync_.error();
    if (place_.ranks == 1) {
      if (sync_.caught()) std::rethrow_exception(sync_.caught());
      throw Error(why);
    }
    const std::string agreed = ranks_.agree_error(sync_.error());
    throw AgreedError(agreed.empty() ? why : agreed);
  }
  std::vector<V> values() { return std::move(replicas_[size_t(place_.first())]); }
  void release() { fabric_.reset(); }  // frees its window (a collective), which waits for the last rank

 private:
  std::unique_ptr<Device> make_device(int d) {
    if (opt_.numa) bind_to_numa_node(d);  // before any of the device's memory is touched
    auto dev = std::make_unique<Device>(d, part_, sync_, stats_, replicas_[size_t(d)], n_);
    DeviceContext<V>& c = dev->c;
    if (per_peer_) c.address_to_readers(readers());
#pragma omp parallel for schedule(static)
    for (vid_t v = 0; v < n_; ++v) c.values[v] = prog_.init(v);
    const GraphChunk& chunk = chunks_[d];
    const size_t cache_bytes = size_t(opt_.migrate_cache_mb) << 20;
    if constexpr (P::kKind == ProgramKind::kGather) {
      dev->ops.main(c, chunk, prog_, gather_board_, per_edge_, exposed_, cache_bytes, opt_.cpu_gather);
    } else if constexpr (ordered_program<P>()) {
      dev->ops.main(c, chunk, prog_, plan_.delta, push_board_, exposed_, cache_bytes);
    } else {
      if (plan_.family == Family::kLinking)
        dev->ops.links(c, chunk, wcc_board_);
      else
        dev->ops.main(c, chunk, prog_, P::kPullable && opt_.direction != chatty::Direction::kPush, push_board_,
                      pull_board_, exposed_, cache_bytes);
    }
    return dev;
  }

  // A cluster's fabric allocates its window (a collective): setup, as GPU
  // devices' allocations are, not the run.
  std::unique_ptr<Fabric> make_fabric() {
    if (!ranks_.is_cluster()) return make_thread_fabric(D_);
    const double t0 = omp_get_wtime();
    std::unique_ptr<Fabric> f = ranks_.make_fabric(opt_.net, D_);
    stats_.setup_seconds += omp_get_wtime() - t0;
    return f;
  }

  void mark_readers() {
    constexpr bool kOutReaders = message_shape<P>().out_readers_only;
    given_readers_ = !part_.readers.empty() && part_.readers_out_only == kOutReaders;
    CHATTY_CHECK(!per_peer_ || given_readers_ || g_.holds_all_rows(),
                 "a rank's readers must be marked by every rank (internal)");
    if (per_peer_ && !given_readers_) own_readers_ = reader_masks(g_, part_, kOutReaders);
  }
  const std::vector<uint64_t>& readers() const { return given_readers_ ? part_.readers : own_readers_; }

  // Blocks migrate across ranks too, for Jacobi gathers and push steps:
  // devices expose what a thief reads to the other ranks (a collective, so
  // decided alike on all). Set up before the run, as GPU devices upload
  // their chunks: its time is reported apart from the run's.
  void expose_for_migration() {
    if (place_.ranks == 1 || !opt_.migrate) return;
    const auto expose = [&](auto region_bytes, auto fill) {
      std::vector<size_t> bytes;
      const int first = place_.first();
      for (int d = first; d < first + place_.local; ++d) bytes.push_back(region_bytes(d));
      const double t0 = omp_get_wtime();
      exposed_ = &ranks_.exposed(place_, bytes);
      for (int d = first; d < first + place_.local; ++d) fill(exposed_->local(d), d);
      stats_.setup_seconds += omp_get_wtime() - t0;
    };
    if constexpr (P::kKind == ProgramKind::kGather) {
      if (!P::kMonotone && !per_edge_)
        expose(
            [&](int d) { return GatherRegion<V>(n_, part_.end(d) - part_.begin(d)).bytes(chunks_[d].in.num_edges()); },
            [&](std::byte* region, int d) {
              expose_gather(region, GatherRegion<V>(n_, part_.end(d) - part_.begin(d)), chunks_[d].in);
            });
    } else if (plan_.family != Family::kLinking) {
      expose(
          [&](int d) {
            const CsrChunk& out = chunks_[d].out;
            return PushRegion<V>(out.hi - out.lo, out.num_edges()).bytes(out.num_edges(), out.weighted());
          },
          [&](std::byte* region, int d) { expose_push<V>(region, chunks_[d].out); });
    }
  }

  const Graph& g_;
  const P& prog_;
  const Partition& part_;
  const EngineOptions& opt_;
  MultiStats& stats_;
  Ranks& ranks_;
  const ClusterPlace place_;
  const RunPlan<V>& plan_;
  const int D_;
  const vid_t n_;
  const bool per_peer_, per_edge_;
  bool given_readers_ = false;
  std::vector<uint64_t> own_readers_;  // when the caller's partition has none
  Mailboxes mb_;
  std::unique_ptr<Fabric> fabric_;
  SuperstepSync sync_;
  const ChunkedGraph chunks_;
  std::vector<std::vector<V>> replicas_;
  const RemoteClaims across_;
  GatherBoard<V> gather_board_;
  PushBoard<V> push_board_;
  PullBoard<V> pull_board_;
  ConnectivityBoard wcc_board_;
  ExposedMemory* exposed_ = nullptr;
  bool all_up_ = true;  // every device of the run started (all_up)
};

}  // namespace chatty::host
