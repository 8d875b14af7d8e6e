// GPU devices for the engine's shell (runtime/engine/run_program.h): one
// OpenMP thread per device creates it (chunk upload, arrays), the devices
// agree that all of them came up, run the program's driver, and copy their
// owned values back. Any device's error stops every device at the same
// superstep and is rethrown by end() as one chatty::Error.
#pragma once

#include <omp.h>

#include <memory>
#include <vector>

#include "comm/transport_table.h"
#include "runtime/base/agreed_error.h"
#include "runtime/base/interrupt.h"
#include "runtime/cuda/connectivity_ops.cuh"
#include "runtime/cuda/gather_ops.cuh"
#include "runtime/cuda/ordered_ops.cuh"
#include "runtime/cuda/traversal_ops.cuh"
#include "runtime/engine/engine.h"
#include "runtime/engine/family.h"
#include "runtime/engine/multi_stats.h"
#include "runtime/engine/ranks.h"
#include "runtime/engine/run_program.h"

namespace chatty::cuda {

template <typename P>
GpuAppNeeds needs_of(const EngineOptions& opt) {
  GpuAppNeeds n;
  if constexpr (P::kKind == ProgramKind::kGather) {
    n.out_targets = false, n.in_edges = true, n.frontier = false, n.published = true;
    if constexpr (P::kSums) n.sum_gather = opt.gpu_gather;
  } else {
    n.weights = P::kNeedsWeights;
    n.in_edges = P::kPullable && opt.direction != Direction::kPush;
    n.split_hubs = opt.gpu_lb == GpuLb::kSplit;
    n.labels = family_of<P>(opt) == Family::kLinking;
  }
  return n;
}

// With a cluster, this process is one rank and drives its devices only
// (place.gpu_of lists theirs), and the policy's transport reaches the other
// ranks (make_rank_staged_transport).
template <typename P>
class GpuBackend {
  using V = typename P::Value;
  static_assert(sizeof(V) == 4, "GPU value arrays hold 32-bit values");

 public:
  static constexpr Backend kBackend = Backend::kCuda;
  using Ops = DeviceOps<P, GatherOps<P>, OrderedOps<P>, TraversalOps<P>, ConnectivityOps>;
  struct Device {
    std::unique_ptr<GpuDevice> dev;
    Ops ops;
    bool up = false;
  };

  GpuBackend(const Graph& g, const P& prog, const Partition& part, const EngineOptions& opt, TransportPolicy& policy,
             MultiStats& stats, Ranks& ranks, const RunPlan<V>& plan, const GpuPlacement& place)
      : g_(g),
        prog_(prog),
        part_(part),
        opt_(opt),
        policy_(policy),
        stats_(stats),
        ranks_(ranks),
        rank_place_(ranks.place(part.devices())),
        plan_(plan),
        place_(place),
        n_(g.num_vertices()),
        needs_(needs_of<P>(opt)),
        mb_(part.devices(), sizeof(Update<V>)),
        run_(part.devices(), mb_, policy, stats,
             ranks.is_cluster() ? ranks.make_fabric(opt.net, part.devices()) : make_thread_fabric(part.devices())),
        result_(n_) {
    CHATTY_CHECK(int(place.gpu_of.size()) == rank_place_.local,
                 "the partition's devices are not the run's (internal error)");
    stats.structure_bytes = g.num_edges() * sizeof(vid_t) + (uint64_t(n_) + uint64_t(part.devices())) * sizeof(eid_t);
    if constexpr (P::kKind == ProgramKind::kGather) dangling0_ = first_contributions(g, prog, contrib0_);
    // Between ranks, send buffers live in mapped host memory, where the
    // transport between ranks reads them.
    const TransportInfo* fixed = find_transport(opt.comm, World::kGpuDevices);
    mapped_send_ = (fixed && fixed->mapped_send) || rank_place_.ranks > 1;
  }

  template <typename F>
  void for_each_device(F f) {
    t0_ = omp_get_wtime();
    const RunStopCarrier run;
#pragma omp parallel num_threads(rank_place_.local)
    {
      const RunStop carried = run.carry();
      f(rank_place_.first() + omp_get_thread_num());
    }
  }

  // Built with the device, before the timer: its uploads, events and first
  // synchronisation are setup, not the run.
  std::unique_ptr<Device> start(int d) {
    auto dev = std::make_unique<Device>();
    dev->up = guarded(run_, [&] {
      CHATTY_CHECK(omp_get_num_threads() == rank_place_.local, "the OpenMP runtime gave fewer threads than the " +
                                                                   std::to_string(rank_place_.local) +
                                                                   " devices (check OMP_THREAD_LIMIT)");
      dev->dev = std::make_unique<GpuDevice>(d, place_.gpu_of[size_t(d - rank_place_.first())], g_, part_, needs_,
                                             mapped_send_, mb_);
      GpuDevice& gd = *dev->dev;
      policy_.prepare(mb_, d);  // staging and mapped copies before the timer starts
      const Launch l = gd.launch(n_);
      init_values_kernel<P><<<l.grid, l.block, 0, gd.stream>>>(prog_, n_, reinterpret_cast<V*>(gd.values.get()));
      CHATTY_CUDA_LAUNCHED("init_values_kernel");
      if constexpr (P::kKind == ProgramKind::kGather) upload_contributions(gd, contrib0_);
      gd.sync();
      // Each program compiles only its family's ops and kernels.
      if constexpr (P::kKind == ProgramKind::kGather) {
        dev->ops.main(run_, gd, prog_, part_, dangling0_);
      } else if constexpr (ordered_program<P>()) {
        dev->ops.main(run_, gd, prog_, plan_.delta, opt_.gpu_lb, opt_.gpu_bucket_min == GpuBucketMin::kWarp,
                      opt_.gpu_wave > 0);
      } else if (plan_.family == Family::kLinking) {
        dev->ops.links(run_, gd, g_.directed(), opt_.gpu_lb);
      } else {
        dev->ops.main(run_, gd, prog_, P::kPullable && opt_.direction != Direction::kPush, opt_.gpu_lb,
                      opt_.gpu_wave > 0);
      }
      gd.sync();
    });
    return dev;
  }

  // Every rank's devices agree that all of them came up.
  bool all_up(int d, const Device* dev) {
    const bool every = run_.all(d, dev && dev->up);
    if (d == rank_place_.first()) t1_ = omp_get_wtime(), stats_.setup_seconds = t1_ - t0_, all_up_ = every;
    return every;
  }
  Ops& ops(Device& dev) { return dev.ops; }

  void finish(int d, Device& dev) {
    run_.meet(d);
    if (d == rank_place_.first()) stats_.run_seconds = omp_get_wtime() - t1_;
    guarded(run_, [&] {
      GpuDevice& gd = *dev.dev;
      CHATTY_CUDA(cudaMemcpyAsync(result_.data() + gd.lo, gd.values.get() + gd.lo, size_t(gd.nd()) * 4,
                                  cudaMemcpyDeviceToHost, gd.stream));
      gd.sync();
    });
  }

  // Every rank learns the first failure (a device's, or a rank's whose
  // devices did not all start) before the gather, which all must join.
  void end() {
    const std::string failed = rank_place_.ranks > 1 ? ranks_.agree_error(run_.error()) : run_.error();
    if (failed.empty() && all_up_) return;
    const std::string why = failed.empty() ? "a GPU device of another rank failed to start" : failed;
    if (rank_place_.ranks > 1) throw AgreedError(why);  // every rank holds it: rank 0 alone prints it
    throw Error(why);
  }
  std::vector<V> values() { return std::move(result_); }
  void release() {}

 private:
  const Graph& g_;
  const P& prog_;
  const Partition& part_;
  const EngineOptions& opt_;
  TransportPolicy& policy_;
  MultiStats& stats_;
  Ranks& ranks_;
  const ClusterPlace rank_place_;
  const RunPlan<V>& plan_;
  const GpuPlacement& place_;
  const vid_t n_;
  const GpuAppNeeds needs_;
  Mailboxes mb_;
  GpuRun run_;
  std::vector<V> result_;
  std::vector<V> contrib0_;
  double dangling0_ = 0;
  bool mapped_send_ = false;
  bool all_up_ = false;
  double t0_ = 0, t1_ = 0;
};

}  // namespace chatty::cuda
