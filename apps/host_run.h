// Runs a vertex program on host devices, for an app's run_host: the
// engine's drivers over part's chunks, with the exchange that opt.comm
// names. Statistics go to out.multi.
#pragma once

#include <utility>
#include <vector>

#include "apps/registry.h"
#include "comm/cluster.h"
#include "comm/transport.h"
#include "runtime/multi_engine.h"

namespace chatty {

// As one rank of a cluster, records travel by MPI one-sided puts; a slot
// holds what a device can send in a superstep (each vertex once, or WCC's
// description: a word of bits per 32 vertices and two headers).
template <typename P>
std::vector<typename P::Value> run_on_host(const AppRun& r, const P& prog, AppOutput& out) {
  if (const ClusterPlace* c = cluster()) {
    const size_t n = r.g.num_vertices();
    auto policy = make_fixed_policy(
        make_cluster_transport(*c, r.opt.comm, r.opt.net, n + n / 32 + 2, sizeof(Update<typename P::Value>)));
    return std::move(run_program_multi(r.g, prog, r.part, r.opt, *policy, out.multi, c).values);
  }
  auto policy = make_fixed_policy(make_host_transport(r.opt.comm));
  return std::move(run_program_multi(r.g, prog, r.part, r.opt, *policy, out.multi).values);
}

}  // namespace chatty
