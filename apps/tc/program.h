// Triangle counting (GAP's `tc`) as an operator program: the graph is
// oriented by degree where that pays (inside the timed run, as GAP times
// its relabelling), then each device counts the triangles of its share of
// the rows (host devices: one compute over rows, count.h) or of the lower
// lists' entries (GPU devices: --gpu_tc's kernel). Every rank holds the
// whole graph and counts its devices' share; the engine sums the counts.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/base/engine_options.h"
#include "runtime/base/program.h"
#include "runtime/engine/operator_program.h"
#include "runtime/graph/graph.h"

namespace chatty {

struct TcProgram {
  static constexpr ProgramKind kKind = ProgramKind::kOperators;
  using Value = uint64_t;  // the triangles through a vertex

  GpuTc gpu_kernel = GpuTc::kRows;
  // The caller's |V| zeros to count into (made before the timed run: their
  // first touch costs as much as a sparse graph's count), or null.
  std::vector<uint64_t>* zeroed = nullptr;

  std::vector<uint64_t> on_host(const Graph& g, host::HostOperators& h) const;  // apps/tc/app.cc
  OperatorRun<uint64_t> on_gpus(const Graph& g, cuda::GpuOperators& d) const;   // apps/tc/gpu.cu
};

}  // namespace chatty
