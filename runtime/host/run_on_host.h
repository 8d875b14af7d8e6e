// Runs a program on host devices. A vertex program: the engine's drivers
// over part's chunks, with the exchange that opt.comm names, between this
// process's devices and, as one of several ranks, over the ranks'
// transport. An operator program: its share of the work on this process's
// devices, its values summed over the ranks (run_operators). Statistics go
// to `stats`.
#pragma once

#include <omp.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "comm/transport.h"
#include "runtime/engine/operator_program.h"
#include "runtime/engine/ranks.h"
#include "runtime/engine/run_program.h"
#include "runtime/host/host_backend.h"
#include "runtime/host/host_operators.h"

namespace chatty {

// As one rank of a cluster, records travel by the ranks' transport, whose
// slots hold with per-edge messages one record per out-edge of the
// sender's chunk (transport_ask: each vertex once otherwise).
template <typename P>
std::vector<typename P::Value> run_on_host(const Graph& g, const P& prog, const Partition& part,
                                           const EngineOptions& opt, Ranks& ranks, MultiStats& stats) {
  if constexpr (operator_program<P>()) {
    return run_operators<P>(ranks, part.devices(), stats, [&](const WorkShare& share) {
      host::HostOperators h(share);
      OperatorRun<typename P::Value> r;
      r.values = prog.on_host(g, h);
      r.device_seconds = h.device_seconds();
      r.edges = h.work();
      r.how = "none (host devices read their peers' rows in place)";
      r.note = h.noted();
      return r;
    });
  } else {
    if (!ranks.is_cluster()) {
      auto policy = make_fixed_policy(make_host_transport(opt.comm));
      return std::move(run_program<host::HostBackend>(g, prog, part, opt, *policy, stats, ranks).values);
    }
    const size_t n = g.num_vertices();
    // One ring per pair unless asked: lanes spin while they wait, which
    // costs more than it gives where ranks share cores (docs/measurements.md).
    RankTransportAsk ask = transport_ask(opt, n, sizeof(Update<typename P::Value>), std::max(1, opt.ring_lanes));
    if (messages_per_edge(opt.messages, sums_in_values<P>(), part.devices()))
      for (int d = 0; d < part.devices(); ++d)
        ask.slot_records =
            std::max<size_t>(ask.slot_records, g.out().offsets[part.end(d)] - g.out().offsets[part.begin(d)]);
    // Its windows are allocated by a collective: setup, not the run.
    const double t0 = omp_get_wtime();
    auto policy = make_fixed_policy(ranks.make_transport(ranks.place(part.devices()), ask));
    const double transport_seconds = omp_get_wtime() - t0;
    std::vector<typename P::Value> values =
        std::move(run_program<host::HostBackend>(g, prog, part, opt, *policy, stats, ranks).values);
    const double t1 = omp_get_wtime();
    policy.reset();  // frees the transport's windows (a collective)
    stats.setup_seconds += transport_seconds;
    stats.collect_seconds += omp_get_wtime() - t1;
    return values;
  }
}

}  // namespace chatty
