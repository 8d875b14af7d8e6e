// run_program_gpu: the CUDA backend's counterpart of run_program_multi.
// One OpenMP thread per device creates it (chunk upload, arrays), the
// devices agree that all of them came up, run the program's driver, and
// copy their owned values back. Any device's error stops every device at
// the same superstep and is rethrown here as one chatty::Error.
#pragma once

#include <omp.h>

#include <memory>
#include <optional>
#include <type_traits>
#include <variant>
#include <vector>

#include "comm/transport_table.h"
#include "cpu_cluster/cluster.h"
#include "runtime/cuda/connectivity_ops.cuh"
#include "runtime/cuda/gather_ops.cuh"
#include "runtime/cuda/ordered_ops.cuh"
#include "runtime/cuda/traversal_ops.cuh"
#include "runtime/drivers/connectivity.h"
#include "runtime/drivers/gather.h"
#include "runtime/drivers/ordered.h"
#include "runtime/drivers/traversal.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/family.h"
#include "runtime/engine/multi_stats.h"
#include "runtime/engine/rank_results.h"

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

// The ops of a program's family; a connectivity program links by union-find
// instead unless told otherwise (ConnectivityOps beside these).
template <typename P>
using FamilyOps = std::conditional_t<P::kKind == ProgramKind::kGather, GatherOps<P>,
                                     std::conditional_t<ordered_program<P>(), OrderedOps<P>, TraversalOps<P>>>;
template <typename P>
using LinkingOps = std::conditional_t<connectivity_program<P>(), std::optional<ConnectivityOps>, std::monostate>;

// With `cluster`, this process is one rank and drives its devices only
// (place.gpu_of lists theirs), the policy's transport reaches the other
// ranks (make_rank_staged_transport), and the values are complete on rank
// 0 only.
template <typename P>
std::vector<typename P::Value> run_program_gpu(const Graph& g, const P& prog, const Partition& part,
                                               const GpuPlacement& place, const EngineOptions& opt,
                                               TransportPolicy& policy, MultiStats& stats,
                                               const ClusterPlace* cluster = nullptr) {
  using V = typename P::Value;
  static_assert(sizeof(V) == 4, "GPU value arrays hold 32-bit values");
  const int D = part.devices();
  const ClusterPlace ranks = cluster ? *cluster : ClusterPlace{0, 1, D};
  CHATTY_CHECK(ranks.devices() == D && int(place.gpu_of.size()) == ranks.local,
               "the partition's devices are not the run's (internal error)");
  const int first = ranks.first(), local = ranks.local;
  const vid_t n = g.num_vertices();
  const GpuAppNeeds needs = needs_of<P>(opt);
  const GpuLb lb = opt.gpu_lb;
  Mailboxes mb(D, sizeof(Update<V>));
  stats.devices = D;
  stats.steps.clear();
  stats.converged = true, stats.last_change = 0;
  stats.device_migrated.clear();
  stats.structure_bytes = g.num_edges() * sizeof(vid_t) + (uint64_t(n) + uint64_t(D)) * sizeof(eid_t);
  GpuRun run(D, mb, policy, stats, cluster ? make_cluster_fabric(*cluster, opt.net) : make_thread_fabric(D));
  std::vector<V> result(n);
  std::vector<V> contrib0;
  double dangling0 = 0;
  if constexpr (P::kKind == ProgramKind::kGather) dangling0 = first_contributions(g, prog, contrib0);
  TraversalStart<V> start;  // once for all devices
  uint64_t auto_delta = 1;  // a collective between ranks: before the devices start
  const Family family = family_of<P>(opt);
  if constexpr (P::kKind == ProgramKind::kTraversal) {
    if (family != Family::kLinking) start = traversal_start(g, prog);
    if (P::kOrdered && !opt.delta) {
      auto_delta = detail::auto_delta(g, Backend::kCuda);
      if (ranks.ranks > 1) auto_delta = uint64_t(cluster_max(double(auto_delta)));  // every rank buckets alike
    }
  }
  // Between ranks, send buffers live in mapped host memory, where the
  // transport between ranks reads them.
  const TransportInfo* fixed = find_transport(opt.comm, World::kGpuDevices);
  const bool mapped_send = (fixed && fixed->mapped_send) || ranks.ranks > 1;
  const uint64_t delta = opt.delta ? opt.delta : auto_delta;
  bool all_up = false;
  if (ranks.ranks > 1) cluster_reset_ops();  // rank_ops counts the run's operations
  const double t0 = omp_get_wtime();
#pragma omp parallel num_threads(local)
  {
    const int d = first + omp_get_thread_num();
    std::unique_ptr<GpuDevice> dev;
    // Built with the device, before the timer: their uploads, events and
    // first synchronisation are setup, not the run.
    std::optional<FamilyOps<P>> ops;
    LinkingOps<P> links;
    const bool up = guarded(run, [&] {
      CHATTY_CHECK(omp_get_num_threads() == local, "the OpenMP runtime gave fewer threads than the " +
                                                       std::to_string(local) + " devices (check OMP_THREAD_LIMIT)");
      dev = std::make_unique<GpuDevice>(d, place.gpu_of[size_t(d - first)], g, part, needs, mapped_send, mb);
      policy.prepare(mb, d);  // staging and mapped copies before the timer starts
      const Launch l = dev->launch(n);
      init_values_kernel<P><<<l.grid, l.block, 0, dev->stream>>>(prog, n, reinterpret_cast<V*>(dev->values.get()));
      CHATTY_CUDA_LAUNCHED("init_values_kernel");
      if constexpr (P::kKind == ProgramKind::kGather) upload_contributions(*dev, contrib0);
      dev->sync();
      // Each program compiles only its family's ops and kernels.
      if constexpr (P::kKind == ProgramKind::kGather) {
        ops.emplace(run, *dev, prog, part, dangling0);
      } else if constexpr (ordered_program<P>()) {
        ops.emplace(run, *dev, prog, delta, lb, opt.gpu_bucket_min == GpuBucketMin::kWarp);
      } else {
        bool linking = false;
        if constexpr (connectivity_program<P>()) {
          if (family == Family::kLinking) links.emplace(run, *dev, g.directed(), lb), linking = true;
        }
        if (!linking) ops.emplace(run, *dev, prog, P::kPullable && opt.direction != Direction::kPush, lb);
      }
      dev->sync();
    });
    const bool every = run.all(d, up);  // every rank's devices
    const double t1 = omp_get_wtime();
    if (d == first) stats.setup_seconds = t1 - t0, all_up = every;
    if (every) {
      if constexpr (P::kKind == ProgramKind::kGather) {
        const GatherEnd end = drive_gather(*ops, prog);
        if (d == first) stats.converged = end.converged, stats.last_change = end.change;
      } else if constexpr (ordered_program<P>()) {
        drive_ordered(*ops, prog, start.vertices, delta);
      } else {
        bool linked = false;
        if constexpr (connectivity_program<P>()) {
          if (links) drive_connectivity(*links, n), linked = true;
        }
        if (!linked) drive_traversal(*ops, prog, g, start, opt);
      }
      run.meet(d);
      if (d == first) stats.run_seconds = omp_get_wtime() - t1;
      guarded(run, [&] {
        CHATTY_CUDA(cudaMemcpyAsync(result.data() + dev->lo, dev->values.get() + dev->lo, size_t(dev->nd()) * 4,
                                    cudaMemcpyDeviceToHost, dev->stream));
        dev->sync();
      });
    }
  }
  // Every rank learns the first failure (a device's, or a rank's whose
  // devices did not all start) before the gather, which all must join.
  const std::string failed = ranks.ranks > 1 ? cluster_agree_error(run.error()) : run.error();
  CHATTY_CHECK(failed.empty() && all_up, failed.empty() ? "a GPU device of another rank failed to start" : failed);
  stats.transport = policy.describe();
  if (ranks.ranks > 1) gather_rank_results(result.data(), n, stats, part, ranks);
  return result;
}

}  // namespace chatty::cuda
