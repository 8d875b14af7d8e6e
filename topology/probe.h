// Finding out what box this is. The CUDA driver (libcuda.so.1) and NVML
// (libnvidia-ml.so.1) are opened at run time, so chatty starts on machines
// without an NVIDIA driver; the probe then reports the host alone.
#pragma once

#include <string>

#include "topology/model.h"

namespace chatty::topo {

// Sockets, NUMA nodes, cores and CPU model from /sys and /proc.
Host probe_host();

// GPUs, per-pair peer access / performance rank / atomics (driver API) and
// NVLink lanes and PCIe paths (NVML). With no usable GPU the topology has
// no GPUs and `note` says why. Costs are left unmeasured.
Topology probe();

// Fills costs that are still unknown from link kinds and published rates
// (marked in `note`), so the policy can decide before any benchmark.
void estimate_costs(Topology& t);

// Runs the link benchmarks (4 KB .. 64 MB; host copy, zero copy, P2P per
// pair, NCCL broadcast over all GPUs) and stores the fitted costs and
// samples in t. Throws chatty::Error when no GPU is usable.
void run_link_benchmarks(Topology& t, bool verbose);

}  // namespace chatty::topo
