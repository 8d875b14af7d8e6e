// The apps on the CUDA backend (apps/run_app_gpu.cu; a stub that throws in
// builds without CUDA). Probes the GPUs, places the devices (virtual
// devices round-robin), checks every GPU's memory before allocating, picks
// the transport policy, and runs.
#pragma once

#include "apps/run_app.h"

namespace chatty {

// Fills out.ints / out.ranks, out.multi and out.gpu_of. Throws chatty::Error.
void run_app_gpu(App app, const Graph& g, vid_t source, const EngineOptions& opt, const Partition* part,
                 AppOutput& out);

}  // namespace chatty
