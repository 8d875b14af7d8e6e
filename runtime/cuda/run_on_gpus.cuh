// Runs a program on GPU devices. An operator program: its share of the
// work on this process's devices (run_operators). A vertex program: probes
// the GPUs, places the devices (virtual devices round-robin), checks every
// GPU's memory before allocating, and runs with the transport policy that
// `make_policy(comm, gpu_of)` makes between this process's GPUs (the
// topology's choice, which the caller owns). Statistics go to `stats`, the
// GPU of every device to `gpu_of`.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "comm/gpu_transports.h"
#include "runtime/cuda/gpu_backend.cuh"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/gpu_plan.h"
#include "runtime/engine/operator_program.h"
#include "runtime/engine/ranks.h"
#include "runtime/engine/run_program.h"

namespace chatty {

// As one rank of a cluster, the rank's devices go on its GPUs and every
// record travels through the transport between ranks, staged through host
// memory (GPUDirect placement is not built; place_gpu_rings in
// cpu_cluster/cluster.h reports what a rank would lack for it).
template <typename P, typename MakePolicy>
std::vector<typename P::Value> run_on_gpus(const Graph& g, const P& prog, const Partition& part,
                                           const EngineOptions& opt, Ranks& all_ranks, MultiStats& stats,
                                           std::vector<int>& gpu_of, MakePolicy make_policy) {
  if constexpr (operator_program<P>()) {
    return run_operators<P>(all_ranks, part.devices(), stats, [&](const WorkShare& share) {
      cuda::GpuOperators d(share);
      OperatorRun<typename P::Value> r = prog.on_gpus(g, d);
      gpu_of = d.gpu_of();
      return r;
    });
  } else {
    // One rank runs as one process does.
    Ranks& ranks = all_ranks.is_cluster() && all_ranks.place(part.devices()).ranks > 1 ? all_ranks : one_process();
    const bool several = ranks.is_cluster();
    const ClusterPlace at = ranks.place(part.devices());
    const int D = part.devices(), local = at.local, first = at.first();
    GpuPlacement place;
    // What a rank checks alone (its GPUs, their memory) is agreed before the
    // first collective, so a rank that fails here does not leave the others
    // waiting.
    std::string refused;
    try {
      const GpuInventory inv = probe_gpus();
      CHATTY_CHECK(!inv.gpus.empty(), "--backend=cuda: no usable GPU (" + inv.why_none + ")");
      const int gpus = int(inv.gpus.size());
      place = place_devices(local, gpus);
      // Ranks sharing a node start on different GPUs (round-robin from there).
      const int shift = several ? ranks.node_rank() * local % gpus : 0;
      for (int& x : place.gpu_of) x = inv.gpus[size_t((x + shift) % gpus)].ordinal;
      if (!several) validate_gpu_comm(opt.comm, place);
      const GpuAppNeeds needs = cuda::needs_of<P>(opt);
      std::vector<DeviceLayout> layouts;
      for (int d = first; d < first + local; ++d) layouts.push_back(plan_device_layout(g, part, d, needs));
      check_gpu_memory(place, layouts, inv);
    } catch (const Error& e) {
      refused = e.what();
    }
    if (several) refused = ranks.agree_error(refused);
    CHATTY_CHECK(refused.empty(), refused);
    gpu_of = place.gpu_of;
    if (several) {
      const size_t n = g.num_vertices();
      // One lane per pair: the GPU devices' threads start no nested teams.
      const RankTransportAsk ask = transport_ask(opt, n, sizeof(Update<typename P::Value>), 1);
      auto policy = make_fixed_policy(make_rank_staged_transport(ranks.make_transport(at, ask), D));
      return std::move(run_program<cuda::GpuBackend>(g, prog, part, opt, *policy, stats, ranks, place).values);
    }
    auto policy = make_policy(D > 1 ? opt.comm : Comm::kP2p, place.gpu_of);
    return std::move(run_program<cuda::GpuBackend>(g, prog, part, opt, *policy, stats, ranks, place).values);
  }
}

}  // namespace chatty
