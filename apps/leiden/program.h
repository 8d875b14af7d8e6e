// Leiden communities (Traag, Waltman and van Eck, 2019): Louvain's levels
// (apps/louvain/program.h: moving in rounds, contraction), with the
// refinement of refine.h between moving and contraction: a level
// contracts the refined communities, which are connected, and the next
// level starts from the partition the level moved to. Levels stop as
// Louvain's do (no gain, `threshold`, or nothing refined to contract); a
// community the last level leaves disconnected is split into its connected
// parts, so every community is connected. Passes of levels follow, each
// from the best one's communities (its first level refines them even where
// no vertex moves), until one gains no more than `threshold`, as igraph's
// n_iterations=-1; `max_level` caps the levels of all passes together. Deterministic:
// the same communities at every device count. An operator program: the
// team shares each step; on GPU devices one device runs the same passes
// (device_levels.h); under ranks, rank 0 computes and the others add zeros.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/louvain/program.h"
#include "runtime/base/program.h"
#include "runtime/engine/operator_program.h"
#include "runtime/graph/graph.h"

namespace chatty {

namespace leiden {

// The refinement's sweep draws its rounds apart from every moving sweep's.
inline constexpr uint32_t kRefineSweep = 0xFFFFFFFFu;

// Whether a set of degree `k_s` with `ext` weight to the rest of its
// community (of degree `k_c`) is well connected to it.
CHATTY_HD inline bool well_connected(int64_t ext, int64_t k_s, int64_t k_c, double resolution, double two_m) {
  return double(ext) >= resolution * double(k_s) * double(k_c - k_s) / two_m;
}

}  // namespace leiden

struct LeidenProgram {
  static constexpr ProgramKind kKind = ProgramKind::kOperators;
  using Value = uint64_t;  // the community's least vertex id

  double resolution = 1.0;
  double threshold = 1e-7;
  uint32_t max_level = 0;               // 0: until a level gains no more than threshold
  louvain::Outcome* outcome = nullptr;  // filled where the communities are computed
  uint32_t passes = 0;                  // at most this many passes (0: until one gains no more than threshold)
  // Where every level's communities go (null: not kept): what a run cut
  // there by max_level gives, the last the run's own.
  std::vector<std::vector<uint32_t>>* levels = nullptr;

  std::vector<uint64_t> on_host(const Graph& g, host::HostOperators& h) const;  // apps/leiden/app.cc
  OperatorRun<uint64_t> on_gpus(const Graph& g, cuda::GpuOperators& d) const;   // apps/leiden/gpu.cu
};

}  // namespace chatty
