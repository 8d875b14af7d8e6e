// The ChattyGraph superstep over P devices (the ChattyGraph paper's algorithm 1). One
// thread of an outer OpenMP team drives each device; each superstep it
//   merges recv[parity] into its replica (owned vertices that change become
//   active) -> computes over its owned active vertices -> compacts changed
//   boundary vertices into its send buffer -> publishes status and meets the
//   others -> exchanges through the policy's transport -> meets again,
// until no device has work (PageRank: until the global L1 change < tolerance).
// Every device keeps the full value array but only its chunk of the edges
// (runtime/graph/graph_chunk.h); the exchange sends each device's updates to the
// peers that read them (all of them, or its readers: exchange_policy.h),
// so replicas of boundary vertices stay current for pull steps and a push
// offer reaches the vertex's owner.
#pragma once

#include <omp.h>

#include <memory>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "cpu_cluster/cluster.h"
#include "cpu_cluster/migration/exposed_memory.h"
#include "runtime/base/status.h"
#include "runtime/drivers/connectivity.h"
#include "runtime/drivers/gather.h"
#include "runtime/drivers/ordered.h"
#include "runtime/drivers/traversal.h"
#include "runtime/engine/device_context.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/exchange_policy.h"
#include "runtime/engine/family.h"
#include "runtime/engine/multi_stats.h"
#include "runtime/engine/rank_results.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/graph/partition.h"
#include "runtime/host/connectivity_ops.h"
#include "runtime/host/gather_ops.h"
#include "runtime/host/ordered_ops.h"
#include "runtime/host/traversal_ops.h"

namespace chatty {
// Binds the calling thread (and the threads it starts) to NUMA node
// d % nodes and prefers that node's memory; no-op without libnuma support.
void bind_to_numa_node(int d);

// Runs `prog` on P = part.devices() host devices; the machine's threads are
// split evenly between the devices this process drives. Results equal
// run_program's (exactly for BFS/SSSP/WCC, within tolerance for PageRank).
// With `cluster`, this process is one rank and drives its devices only;
// the policy's transport must reach the other ranks, and the values are
// complete on rank 0 only.
template <typename P>
EngineResult<typename P::Value> run_program_multi(const Graph& g, const P& prog, const Partition& part,
                                                  const EngineOptions& opt, TransportPolicy& policy, MultiStats& stats,
                                                  const ClusterPlace* cluster = nullptr) {
  using V = typename P::Value;
  if constexpr (P::kKind == ProgramKind::kTraversal)
    if constexpr (P::kNeedsWeights) CHATTY_CHECK(g.weighted(), "this app needs edge weights");
  const int D = part.devices();
  const vid_t n = g.num_vertices();
  constexpr bool kInEdges = [] {
    if constexpr (P::kKind == ProgramKind::kGather)
      return true;
    else
      return P::kPullable;
  }();
  const Family family = family_of<P>(opt);
  const bool per_peer = exchange_per_peer(opt.exchange, family == Family::kLinking, D, cluster && cluster->ranks > 1);
  const bool per_edge = messages_per_edge(opt.messages, sums_in_values<P>(), D);
  std::vector<uint64_t> own_readers;  // when the caller's partition has none
  constexpr bool kOutReaders = message_shape<P>().out_readers_only;
  const bool given = !part.readers.empty() && part.readers_out_only == kOutReaders;
  CHATTY_CHECK(!per_peer || given || g.holds_all_rows(), "a rank's readers must be marked by every rank (internal)");
  if (per_peer && !given) own_readers = reader_masks(g, part, kOutReaders);
  const std::vector<uint64_t>& readers = given ? part.readers : own_readers;
  const ClusterPlace place = cluster ? *cluster : ClusterPlace{0, 1, D};
  CHATTY_CHECK(place.devices() == D, "the partition's devices are not the cluster's (internal error)");
  const int first = place.first(), local = place.local;
  Mailboxes mb(D, sizeof(Update<V>));
  // A cluster's fabric allocates its window (a collective): setup, as GPU
  // devices' allocations are, not the run.
  const double fabric_t0 = omp_get_wtime();
  std::unique_ptr<Fabric> fabric = cluster ? make_cluster_fabric(place, opt.net) : make_thread_fabric(D);
  const double fabric_seconds = cluster ? omp_get_wtime() - fabric_t0 : 0.0;
  SuperstepSync sync(*fabric, mb, policy, stats);
  stats.devices = D;
  stats.steps.clear();
  stats.converged = true, stats.last_change = 0;
  stats.device_migrated.clear();
  stats.device_migrated_blocks.clear();
  stats.setup_seconds = fabric_seconds;
  stats.collect_seconds = 0;
  stats.device_seconds.assign(size_t(D), {});
  stats.transport = policy.describe();
  stats.exchange = per_peer || per_edge ? "peer" : "broadcast";
  stats.messages = per_edge ? "per_edge" : "sendall";
  const ChunkedGraph chunks(g, part, kInEdges, opt.chunk_copies);
  stats.structure_bytes = 0;
  for (int d = 0; d < D; ++d) stats.structure_bytes = std::max(stats.structure_bytes, chunks.bytes(d));
  const int per_device = std::max(1, omp_get_max_threads() / local);
  const int saved_levels = omp_get_max_active_levels();
  omp_set_max_active_levels(2);
  std::vector<std::vector<V>> replicas(static_cast<size_t>(D));
  const RemoteClaims across{opt.migrate_block, opt.migrate_threshold, cluster_watch_seconds()};
  check_straggler(opt.straggler, D);
  host::GatherBoard<V> gather_board(*fabric, opt.migrate, across, opt.straggler);
  // Blocks migrate across ranks too, for Jacobi gathers and push steps:
  // devices expose what a thief reads to the other ranks (a collective, so
  // decided alike on all). Set up before the run, as GPU devices upload
  // their chunks: its time is reported apart from the run's.
  ExposedMemory* exposed = nullptr;
  const auto expose = [&](auto region_bytes, auto fill) {
    std::vector<size_t> bytes;
    for (int d = first; d < first + local; ++d) bytes.push_back(region_bytes(d));
    const double t0 = omp_get_wtime();
    exposed = &cluster_exposed(place, bytes);
    for (int d = first; d < first + local; ++d) fill(exposed->local(d), d);
    stats.setup_seconds += omp_get_wtime() - t0;
  };
  if (place.ranks > 1 && opt.migrate) {
    if constexpr (P::kKind == ProgramKind::kGather) {
      if (!P::kMonotone && !per_edge)
        expose(
            [&](int d) {
              return host::GatherRegion<V>(n, part.end(d) - part.begin(d)).bytes(chunks[d].in.num_edges());
            },
            [&](std::byte* region, int d) {
              host::expose_gather(region, host::GatherRegion<V>(n, part.end(d) - part.begin(d)), chunks[d].in);
            });
    } else if (family != Family::kLinking) {
      expose(
          [&](int d) {
            const CsrChunk& out = chunks[d].out;
            return host::PushRegion<V>(out.hi - out.lo, out.num_edges()).bytes(out.num_edges(), out.weighted());
          },
          [&](std::byte* region, int d) { host::expose_push<V>(region, chunks[d].out); });
    }
  }
  const size_t cache_bytes = size_t(opt.migrate_cache_mb) << 20;
  host::PushBoard<V> push_board(*fabric, opt.migrate, across, opt.straggler);
  host::PullBoard<V> pull_board(*fabric, opt.migrate, across, opt.straggler);
  host::ConnectivityBoard wcc_board(*fabric, opt.migrate, across, opt.straggler);
  uint64_t delta = 1;
  TraversalStart<V> start;
  if constexpr (P::kKind == ProgramKind::kTraversal) {
    delta = opt.delta ? opt.delta : detail::auto_delta(g, Backend::kCpu);
    if (cluster) delta = uint64_t(cluster_max(double(delta)));  // every rank buckets alike
    if (family != Family::kLinking) start = traversal_start(g, prog);
  }
  auto run_device = [&](int d) {
    if (opt.numa) bind_to_numa_node(d);  // before any of the device's memory is touched
    DeviceContext<V> c(d, part, sync, stats, replicas[size_t(d)], n);
    if (per_peer) c.address_to_readers(readers);
#pragma omp parallel for schedule(static)
    for (vid_t v = 0; v < n; ++v) c.values[v] = prog.init(v);
    if constexpr (P::kKind == ProgramKind::kGather) {
      host::GatherOps<P> ops(c, chunks[d], prog, gather_board, per_edge, exposed, cache_bytes);
      const GatherEnd end = drive_gather(ops, prog);
      if (d == first) stats.converged = end.converged, stats.last_change = end.change;
      ops.finish();
    } else {
      if (family == Family::kLinking) {
        if constexpr (std::is_same_v<V, vid_t>) {
          host::ConnectivityOps<V> ops(c, chunks[d], wcc_board);
          drive_connectivity(ops, n);
        }
      } else if (P::kOrdered) {
        host::OrderedOps<P> ops(c, chunks[d], prog, delta, push_board, exposed, cache_bytes);
        drive_ordered(ops, prog, start.vertices, delta);
      } else {
        host::TraversalOps<P> ops(c, chunks[d], prog, P::kPullable && opt.direction != Direction::kPush, push_board,
                                  pull_board, exposed, cache_bytes);
        drive_traversal(ops, prog, g, start, opt);
      }
    }
    // The first local device's replica becomes the result (no fresh array
    // to fault in): once every device is done reading it, the others copy
    // their chunks in.
    fabric->barrier(d);
    if (d != first) std::copy(c.values.begin() + c.lo, c.values.begin() + c.hi, replicas[size_t(first)].begin() + c.lo);
  };
  if (place.ranks > 1) cluster_reset_ops();  // rank_ops counts the run's operations, not its setup's
  if (local == 1) {
    // The device's team is the first level: nested teams are not pooled,
    // and starting one every superstep costs more than a small step.
    run_device(first);
  } else {
#pragma omp parallel num_threads(local)
    {
      omp_set_num_threads(per_device);
      run_device(first + omp_get_thread_num());
    }
  }
  omp_set_max_active_levels(saved_levels);
  if (sync.stopped())  // every rank stops at the same sync; the failing one knows why
    throw Error(sync.error().empty() ? "another rank of the run failed" : sync.error());
  EngineResult<V> r;
  r.values = std::move(replicas[size_t(first)]);
  if (place.ranks > 1) {
    const double t0 = omp_get_wtime();
    gather_rank_results(r.values.data(), n, stats, part, place);
    fabric.reset();  // frees its window (a collective), which waits for the last rank
    stats.collect_seconds = omp_get_wtime() - t0;
  }
  return r;
}

}  // namespace chatty
