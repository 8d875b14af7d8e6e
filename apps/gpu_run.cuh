// Runs a vertex program on GPU devices, for an app's run_gpu: probes the
// GPUs, places the devices (virtual devices round-robin), checks every
// GPU's memory before allocating, picks the transport policy, and runs.
// Statistics go to out.multi, the GPU of every device to out.gpu_of.
#pragma once

#include <vector>

#include "apps/registry.h"
#include "runtime/cuda/gpu_run.cuh"
#include "runtime/gpu_plan.h"
#include "topology/gpu_policy.h"

namespace chatty {

template <typename P>
std::vector<typename P::Value> run_on_gpus(const AppRun& r, const P& prog, AppOutput& out) {
  const GpuInventory inv = probe_gpus();
  CHATTY_CHECK(!inv.gpus.empty(), "--backend=cuda: no usable GPU (" + inv.why_none + ")");
  const int D = r.part.devices();
  GpuPlacement place = place_devices(D, int(inv.gpus.size()));
  for (int& x : place.gpu_of) x = inv.gpus[size_t(x)].ordinal;
  validate_gpu_comm(r.opt.comm, place);
  const GpuAppNeeds needs = cuda::needs_of<P>(r.opt);
  std::vector<DeviceLayout> layouts;
  for (int d = 0; d < D; ++d) layouts.push_back(plan_device_layout(r.g, r.part, d, needs));
  check_gpu_memory(place, layouts, inv);
  auto policy = make_gpu_policy(D > 1 ? r.opt.comm : Comm::kP2p, place.gpu_of);
  out.gpu_of = place.gpu_of;
  return cuda::run_program_gpu(r.g, prog, r.part, place, r.opt, *policy, out.multi);
}

}  // namespace chatty
