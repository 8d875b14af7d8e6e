// Runs a vertex program on GPU devices, for an app's run_gpu: probes the
// GPUs, places the devices (virtual devices round-robin), checks every
// GPU's memory before allocating, picks the transport policy, and runs.
// Statistics go to out.multi, the GPU of every device to out.gpu_of.
#pragma once

#include <vector>

#include "apps/registry.h"
#include "comm/gpu_transports.h"
#include "cpu_cluster/cluster.h"
#include "runtime/cuda/gpu_backend.cuh"
#include "runtime/cuda/gpu_plan.h"
#include "runtime/engine/run_program.h"
#include "topology/gpu_policy.h"

namespace chatty {

// As one rank of a cluster, the rank's devices go on its GPUs and every
// record travels through the transport between ranks, staged through host
// memory (GPUDirect placement is not built; place_gpu_rings in
// cpu_cluster/cluster.h reports what a rank would lack for it).
template <typename P>
std::vector<typename P::Value> run_on_gpus(const AppRun& r, const P& prog, AppOutput& out) {
  const ClusterPlace* c = cluster();
  if (c && c->ranks == 1) c = nullptr;  // one rank runs as one process does
  const int D = r.part.devices(), local = c ? c->local : D, first = c ? c->first() : 0;
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
    const int shift = c ? node_local_rank() * local % gpus : 0;
    for (int& x : place.gpu_of) x = inv.gpus[size_t((x + shift) % gpus)].ordinal;
    if (!c) validate_gpu_comm(r.opt.comm, place);
    const GpuAppNeeds needs = cuda::needs_of<P>(r.opt);
    std::vector<DeviceLayout> layouts;
    for (int d = first; d < first + local; ++d) layouts.push_back(plan_device_layout(r.g, r.part, d, needs));
    check_gpu_memory(place, layouts, inv);
  } catch (const Error& e) {
    refused = e.what();
  }
  if (c) refused = cluster_agree_error(refused);
  CHATTY_CHECK(refused.empty(), refused);
  out.gpu_of = place.gpu_of;
  if (c) {
    const size_t n = r.g.num_vertices();
    // One lane per pair: the GPU devices' threads start no nested teams.
    auto between =
        make_cluster_transport(*c, r.opt.comm, r.opt.net, n + n / 32 + 2, sizeof(Update<typename P::Value>),
                               r.opt.ring_bytes, r.opt.batch_bytes, r.opt.small_bytes, 1, r.opt.put_window_bytes);
    auto policy = make_fixed_policy(make_rank_staged_transport(std::move(between), D));
    return std::move(run_program<cuda::GpuBackend>(r.g, prog, r.part, r.opt, *policy, out.multi, c, place).values);
  }
  auto policy = make_gpu_policy(D > 1 ? r.opt.comm : Comm::kP2p, place.gpu_of);
  return std::move(run_program<cuda::GpuBackend>(r.g, prog, r.part, r.opt, *policy, out.multi, nullptr, place).values);
}

}  // namespace chatty
