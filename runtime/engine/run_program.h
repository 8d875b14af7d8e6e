// The engine's one shell (the ChattyGraph paper's algorithm 1 around its
// devices), written once for every backend: it decides what the devices
// start from (the program's family, its first frontier, the bucket width),
// starts each device on a driving thread of its own, runs the family's
// driver (runtime/drivers/) over the device's ops, ends the run when any
// device failed, and gathers a rank's results to rank 0. A backend supplies
// mechanisms only: how a device and its ops are built, and where values
// land (runtime/host/host_backend.h, runtime/cuda/gpu_backend.cuh).
//
// A backend B<P> is built from (g, prog, part, opt, policy, stats, ranks,
// plan, extra...) and offers:
//   static constexpr Backend kBackend;
//   template <typename F> void for_each_device(F f);  // f(d) on each local device's driving thread
//   std::unique_ptr<Device> start(int d);            // the device and its family's ops; null if it failed
//   bool all_up(int d, const Device*);               // whether every device of the run started (all call it)
//   DeviceOps<...>& ops(Device&);
//   void finish(int d, Device&);                      // after the driver: the device's values into values()
//   void end();                                       // throws the run's first error
//   std::vector<V> values();                          // this rank's result (every vertex on rank 0 after the gather)
//   void release();                                   // after the gather (collectives the ranks' teardown needs)
#pragma once

#include <omp.h>

#include <memory>
#include <optional>
#include <type_traits>
#include <variant>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/drivers/connectivity.h"
#include "runtime/drivers/gather.h"
#include "runtime/drivers/ordered.h"
#include "runtime/drivers/traversal.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/family.h"
#include "runtime/engine/multi_stats.h"
#include "runtime/engine/rank_results.h"
#include "runtime/engine/ranks.h"
#include "runtime/graph/partition.h"

namespace chatty {

// What every device of a run starts from, decided once, alike on every rank.
template <typename V>
struct RunPlan {
  Family family = Family::kTraversal;
  TraversalStart<V> start;  // traversals' first frontier
  uint64_t delta = 1;       // ordered programs' bucket width
};

template <typename P>
RunPlan<typename P::Value> plan_run(const Graph& g, const P& prog, const EngineOptions& opt, Backend backend,
                                    Ranks& ranks, const ClusterPlace& place) {
  RunPlan<typename P::Value> plan;
  plan.family = family_of<P>(opt);
  if constexpr (P::kKind == ProgramKind::kTraversal) {
    if constexpr (P::kNeedsWeights) CHATTY_CHECK(g.every_edge_weighted(), "this app needs edge weights");
    if (plan.family != Family::kLinking) plan.start = traversal_start(g, prog);
    if (plan.family == Family::kOrdered) {
      plan.delta = opt.delta;
      if (!plan.delta) {
        plan.delta = detail::auto_delta(g, backend);
        if (place.ranks > 1) plan.delta = uint64_t(ranks.max(double(plan.delta)));  // every rank buckets alike
      }
    }
  }
  return plan;
}

// A device's ops, its family's, held in place (ops hold references and do
// not move): Gather, Ordered or Traversal by the program's kind, and for a
// connectivity program also Linking, built instead when union-find links it.
template <typename P, typename Gather, typename Ordered, typename Traversal, typename Linking>
class DeviceOps {
 public:
  using Main = std::conditional_t<P::kKind == ProgramKind::kGather, Gather,
                                  std::conditional_t<ordered_program<P>(), Ordered, Traversal>>;

  // main(args...) builds the family's ops; links(args...) a connectivity
  // program's union-find ops instead (nothing for other programs).
  template <typename... A>
  Main& main(A&&... a) {
    return main_.emplace(std::forward<A>(a)...);
  }
  template <typename... A>
  void links(A&&... a) {
    if constexpr (connectivity_program<P>()) links_.emplace(std::forward<A>(a)...);
  }

  // f(the ops built).
  template <typename F>
  decltype(auto) visit(F&& f) {
    if constexpr (connectivity_program<P>())
      if (links_) return f(*links_);
    return f(*main_);
  }

 private:
  std::optional<Main> main_;
  std::conditional_t<connectivity_program<P>(), std::optional<Linking>, std::monostate> links_;
};

// Runs a device's ops to the end with their family's driver; a gather's
// end, else the default.
template <typename P, typename Ops>
GatherEnd drive_family(Ops& ops, const P& prog, const Graph& g, const RunPlan<typename P::Value>& plan,
                       const EngineOptions& opt) {
  if constexpr (Ops::kFamily == Family::kGather) {
    return drive_gather(ops, prog);
  } else {
    if constexpr (Ops::kFamily == Family::kLinking)
      drive_connectivity(ops, g.num_vertices());
    else if constexpr (Ops::kFamily == Family::kOrdered)
      drive_ordered(ops, prog, plan.start.vertices, plan.delta, wave_rule_of(ops, opt));
    else
      drive_traversal(ops, prog, g, plan.start, opt);
    return GatherEnd{};
  }
}

// Runs `prog` on P = part.devices() devices of backend B. Results equal
// run_program's (exactly for BFS/SSSP/WCC, within tolerance for
// PageRank). As one of several `ranks`, this process drives its devices
// only; the policy's transport must reach the other ranks, and the values
// are complete on rank 0 only. `extra` goes to B's constructor.
template <template <typename> class B, typename P, typename... Extra>
EngineResult<typename P::Value> run_program(const Graph& g, const P& prog, const Partition& part,
                                            const EngineOptions& opt, TransportPolicy& policy, MultiStats& stats,
                                            Ranks& ranks, Extra&&... extra) {
  const int D = part.devices();
  const ClusterPlace place = ranks.place(D);
  CHATTY_CHECK(place.devices() == D, "the partition's devices are not the run's (internal error)");
  stats.devices = D;
  stats.steps.clear();
  stats.converged = true, stats.last_change = 0;
  stats.device_migrated.clear();
  stats.device_migrated_blocks.clear();
  stats.setup_seconds = stats.collect_seconds = stats.run_seconds = 0;
  stats.device_seconds.assign(size_t(D), {});
  // The ranks leave setup together, as one process's devices start
  // together: a rank's late exit from setup's last collective would
  // otherwise be waited for inside the run. Twice: the plan agrees on
  // SSSP's bucket width in a collective, where the ranks' skew from the
  // transport's windows (up to 9 ms on kron:20) was waited for.
  const auto leave_setup_together = [&] {
    if (place.ranks == 1) return 0.0;
    const double t0 = omp_get_wtime();
    ranks.barrier();
    return omp_get_wtime() - t0;
  };
  // Added once the run is over: a GPU backend sets setup_seconds itself,
  // from its construction on.
  const double before_plan = leave_setup_together();
  const RunPlan<typename P::Value> plan = plan_run(g, prog, opt, B<P>::kBackend, ranks, place);
  B<P> backend(g, prog, part, opt, policy, stats, ranks, plan, std::forward<Extra>(extra)...);
  stats.setup_seconds += leave_setup_together();
  if (place.ranks > 1) ranks.reset_ops();  // rank_ops counts the run's operations, not its setup's
  backend.for_each_device([&](int d) {
    auto dev = backend.start(d);
    if (!backend.all_up(d, dev.get())) return;
    const GatherEnd end = backend.ops(*dev).visit([&](auto& ops) { return drive_family(ops, prog, g, plan, opt); });
    if constexpr (P::kKind == ProgramKind::kGather)
      if (d == place.first()) stats.converged = end.converged, stats.last_change = end.change;
    backend.finish(d, *dev);
  });
  backend.end();
  stats.setup_seconds += before_plan;
  stats.transport = policy.describe();
  EngineResult<typename P::Value> r{backend.values()};
  if (place.ranks > 1) {
    ranks.note_results();
    const double t0 = omp_get_wtime();
    gather_rank_results(r.values.data(), g.num_vertices(), stats, part, ranks, place);
    backend.release();
    stats.collect_seconds = omp_get_wtime() - t0;
  }
  return r;
}

}  // namespace chatty
