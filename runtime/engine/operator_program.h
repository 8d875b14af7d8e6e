// Operator programs: an algorithm composed of the operators (compute,
// advance, filter, gather, reduce, intersect; runtime/host/operators.h and
// runtime/cuda/operators.cuh) over the whole graph, which every device
// (and every rank) holds, each working on its share of the rows or of the
// items (sources). A program declares
//   static constexpr ProgramKind kKind = ProgramKind::kOperators;
//   using Value = uint64_t or double;  // per vertex, summed over the shares
//   std::vector<Value> on_host(const Graph&, host::HostOperators&) const;
//   OperatorRun<Value> on_gpus(const Graph&, cuda::GpuOperators&) const;  // in a .cu
// and composes its steps there; the engine (run_operators) gives it its
// share and the devices to run on, sums its values over the ranks, and
// records the run. The program has no thread team, launch or rank sum of
// its own.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "runtime/base/program.h"
#include "runtime/engine/multi_stats.h"
#include "runtime/engine/ranks.h"
#include "runtime/engine/work_share.h"

namespace chatty {

// What an operator program's steps run on (runtime/host/host_operators.h,
// runtime/cuda/gpu_operators.cuh): declared here, so that a program's
// header names them without including a backend.
namespace host {
class HostOperators;
}
namespace cuda {
class GpuOperators;
}

template <typename P>
constexpr bool operator_program() {
  return P::kKind == ProgramKind::kOperators;
}

// What a share's run gives the engine.
template <typename V>
struct OperatorRun {
  std::vector<V> values;               // per vertex: this process's share's sums
  std::vector<double> device_seconds;  // each device's busy time
  uint64_t edges = 0;                  // list entries read
  std::string how;                     // how the devices reach their data (the record's transport)
  std::string note;                    // what the run chose, for the record ("" none)
  double setup_seconds = -1;           // where the backend times them apart (GPU devices)
  double run_seconds = -1;
  uint64_t structure_bytes = 0;
};

// The run of a process whose share is empty (a rank-0 program on another
// rank, a rank without sources): `count` zeros for the sum over the ranks,
// no device time, and `how` saying who computes.
template <typename V>
OperatorRun<V> nothing_here(size_t count, std::string how) {
  OperatorRun<V> r;
  r.values.assign(count, V{});
  r.device_seconds = {0.0};
  r.how = std::move(how);
  return r;
}

// Runs a share of `prog` on this process's `devices` devices with
// run_share(const WorkShare&), sums the values over the ranks, and records
// the run in `stats`.
template <typename P, typename RunShare>
std::vector<typename P::Value> run_operators(Ranks& ranks, int devices, MultiStats& stats, RunShare&& run_share) {
  const WorkShare share = work_share(ranks, devices);
  OperatorRun<typename P::Value> r = run_share(share);
  if (share.ranks > 1) ranks.sum(r.values.data(), r.values.size());
  record_operator_run(stats, r.device_seconds, r.edges, r.how);
  if (!r.note.empty()) stats.transport += "; " + r.note;
  if (share.ranks > 1) stats.transport += "; every rank holds the whole graph, the results summed over the ranks";
  if (r.setup_seconds >= 0) stats.setup_seconds = r.setup_seconds;
  if (r.run_seconds >= 0) stats.run_seconds = r.run_seconds;
  if (r.structure_bytes) stats.structure_bytes = r.structure_bytes;
  return std::move(r.values);
}

}  // namespace chatty
