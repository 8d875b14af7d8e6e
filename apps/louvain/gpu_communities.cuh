// The run of a community program (Louvain, Leiden) on one GPU device:
// rank 0's first device uploads the input's levels (device_levels.h on
// CUB's mechanisms) and a Driver<Mechanisms> over them runs the program;
// any other rank adds zeros. Driver(levels) is made at setup, and
// driver.run(program, outcome) returns each vertex's community.
#pragma once

#include <memory>
#include <vector>

#include "apps/louvain/cuda_mechanisms.cuh"
#include "apps/louvain/device_levels.h"
#include "runtime/base/interrupt.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/row_devices.cuh"

namespace chatty::louvain {

// `per_vertex`: the device bytes a vertex needs beside 120 an edge (three
// levels' graphs, the rows' sort keys) and CUB's room.
template <template <typename> class Driver, typename P>
OperatorRun<uint64_t> communities_on_gpu(const P& program, const Graph& g, cuda::GpuOperators& d, const char* name,
                                         uint64_t per_vertex) {
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  const eid_t m = c.num_edges();
  if (d.share().rank != 0) return nothing_here<uint64_t>(n, "none (rank 0 computes the communities)");
  struct Device {
    cuda::Stream stream;
    std::unique_ptr<CudaMechanisms> mechanisms;
    std::unique_ptr<dev::Levels<CudaMechanisms>> levels;
    std::unique_ptr<Driver<CudaMechanisms>> driver;
  };
  const uint64_t structure = (uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t);
  const uint64_t bytes = per_vertex * (uint64_t(n) + 1) + 120 * (uint64_t(m) + 1) + (64u << 20);
  const cuda::RowDevices& rd = d.place(1, bytes, name);
  cuda::DeviceSet<Device> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<Device>();
    x->mechanisms = std::make_unique<CudaMechanisms>(cuda::OpStream{x->stream.get(), rd.multiprocessors[size_t(dv)]});
    x->levels = std::make_unique<dev::Levels<CudaMechanisms>>(
        *x->mechanisms, c, g.weighted() ? c.weights.data() : nullptr, program.resolution);
    x->driver = std::make_unique<Driver<CudaMechanisms>>(*x->levels);
    x->stream.sync();
    return x;
  });
  std::vector<uint32_t> labels;
  Outcome found;
  const double run_seconds = dev.run([&](int, Device& x) {
    labels = x.driver->run(program, found);
    x.stream.sync();
  });
  throw_if_interrupted();
  OperatorRun<uint64_t> r;
  dev.for_each([&](Device& x) { r.edges = x.levels->examined(); });
  dev.release();
  if (program.outcome) *program.outcome = found;
  r.values.assign(labels.begin(), labels.end());
  dev.record(r, run_seconds, "none (one GPU device holds the graph and its levels)", structure);
  return r;
}

}  // namespace chatty::louvain
