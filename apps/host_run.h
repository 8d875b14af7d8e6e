// Runs a vertex program on host devices, for an app's run_host: the
// engine's drivers over part's chunks, with the exchange that opt.comm
// names. Statistics go to out.multi.
#pragma once

#include <omp.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "apps/registry.h"
#include "comm/transport.h"
#include "cpu_cluster/cluster.h"
#include "runtime/engine/run_program.h"
#include "runtime/host/host_backend.h"

namespace chatty {

// As one rank of a cluster, records travel by MPI one-sided puts; a slot
// holds what a device can send in a superstep: each vertex once, or WCC's
// description (a word of bits per 32 vertices and two headers), or with
// per-edge messages one record per out-edge of the sender's chunk.
template <typename P>
std::vector<typename P::Value> run_on_host(const AppRun& r, const P& prog, AppOutput& out) {
  if (const ClusterPlace* c = cluster()) {
    const size_t n = r.g.num_vertices();
    size_t slot = n + n / 32 + 2;
    if (messages_per_edge(r.opt.messages, sums_in_values<P>(), r.part.devices()))
      for (int d = 0; d < r.part.devices(); ++d)
        slot = std::max<size_t>(slot, r.g.out().offsets[r.part.end(d)] - r.g.out().offsets[r.part.begin(d)]);
    // One ring per pair unless asked: lanes spin while they wait, which
    // costs more than it gives where ranks share cores (docs/measurements.md).
    const int lanes = std::max(1, r.opt.ring_lanes);
    // Its windows are allocated by a collective: setup, not the run.
    const double t0 = omp_get_wtime();
    auto policy = make_fixed_policy(
        make_cluster_transport(*c, r.opt.comm, r.opt.net, slot, sizeof(Update<typename P::Value>), r.opt.ring_bytes,
                               r.opt.batch_bytes, r.opt.small_bytes, lanes, r.opt.put_window_bytes));
    const double transport_seconds = omp_get_wtime() - t0;
    std::vector<typename P::Value> values =
        std::move(run_program<host::HostBackend>(r.g, prog, r.part, r.opt, *policy, out.multi, c).values);
    const double t1 = omp_get_wtime();
    policy.reset();  // frees the transport's windows (a collective)
    out.multi.setup_seconds += transport_seconds;
    out.multi.collect_seconds += omp_get_wtime() - t1;
    return values;
  }
  auto policy = make_fixed_policy(make_host_transport(r.opt.comm));
  return std::move(run_program<host::HostBackend>(r.g, prog, r.part, r.opt, *policy, out.multi, nullptr).values);
}

}  // namespace chatty
