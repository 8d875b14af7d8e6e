// Louvain communities (Blondel et al.), maximising modularity with
// NetworkX's resolution and threshold: each level moves vertices between
// communities until modularity stops rising, then contracts every
// community into one vertex of a weighted graph that the next level runs
// on again; it stops when a level gains no more than `threshold` (or
// after `max_level` levels). A sweep visits the vertices in rounds (by a
// hash of the vertex, the level and the sweep): the active vertices of a
// round decide together against the communities the rounds before left,
// then move. Decisions read nothing a round changes, and the sums are
// integers, so the result is the same at every device count. An operator
// program (levels.h): the team shares each step; on GPU devices one device
// runs the same levels (device_levels.h); under ranks, rank 0 computes the
// communities and the others add zeros.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "runtime/base/hash.h"
#include "runtime/base/program.h"
#include "runtime/engine/operator_program.h"
#include "runtime/graph/graph.h"

namespace chatty {

namespace louvain {

// What a run found besides the communities.
struct Outcome {
  double modularity = 0;
  uint32_t levels = 0;  // the partitions NetworkX's louvain_partitions would yield
  bool computed = false;
  uint32_t passes = 1;  // Leiden: the passes of levels up to the best one
};

// How much a vertex of weighted degree `k` gains, in units of 1/m, by
// joining a community holding `stot` of weighted degree (itself not
// counted) to which it has edges of weight `to`: the term of NetworkX's
// gain that differs between communities. Made once per vertex (the
// division with it), then one fused multiply-add per community (one
// rounding, whatever a compiler would contract): the run, the reference and
// GPU devices decide alike to the last bit.
class Score {
 public:
  CHATTY_HD Score(int64_t k, double resolution, double two_m) : per_stot_(resolution * double(k) / two_m) {}
  CHATTY_HD double operator()(int64_t to, int64_t stot) const { return fma(-double(stot), per_stot_, double(to)); }

 private:
  double per_stot_;
};

// Sums of squared degrees, exact past 2^64 (kron:24's largest community
// degree squared is about 2^57).
__extension__ typedef unsigned __int128 Squares;

// Modularity from integer sums: `inside` is the weight of the edges within
// communities (a self-loop once), `squares` the sum over communities of
// their weighted degree squared, m the total edge weight.
inline double modularity(uint64_t inside, Squares squares, uint64_t m, double resolution) {
  if (m == 0) return 0;
  const double dm = double(m);
  return double(inside) / dm - resolution * double(squares) / (4.0 * dm * dm);
}

// The rounds of a sweep: of two neighbours, one mostly sees the other's
// move (whose round is earlier) rather than both moving at once (moving
// every vertex at once loses a third of the modularity on kron:16). Which
// round a vertex falls in changes every sweep, so no pair keeps deciding
// together. 32 rather than 8: Leiden on kron:16 0.0996 against 0.0989,
// nearer a sequential sweep's; a round visits its own list (RoundLists),
// so more rounds cost barriers, not passes over every vertex. Louvain's
// sweeps have kRounds, Leiden's more (apps/leiden/program.h).
inline constexpr uint8_t kRounds = 32;
inline constexpr uint8_t kMaxRounds = 255;
CHATTY_HD inline uint8_t round_of(uint32_t level, uint32_t sweep, uint32_t v, uint8_t rounds) {
  return uint8_t(hash2((uint64_t(level) << 32) | sweep, v) % rounds);
}

// A level sweeps at most this often; it stops early when a sweep gains no
// more than its tolerance: kFirstTolerance at level 0, a tenth of the level
// before's after it (the tail of a level moves few vertices for little
// gain, and the next level moves them together).
inline constexpr uint32_t kMaxSweeps = 64;
inline constexpr double kFirstTolerance = 3e-3;  // kron:20: 0.59x the time of 1e-3, modularity 0.001 less

// Louvain's levels stop sooner (kLouvainFirstTolerance at level 0), and
// then the vertices of the input move once more from the last level's
// communities, to kRefineTolerance, as NetworKit's PLM refines: a vertex
// on the border of a community the coarse levels moved whole can still
// leave it. Measured on kron:20 against 3e-3 without the last moves: the
// same time, modularity 0.0731 -> 0.0807; grid:300x300 0.9516 -> 0.9563.
inline constexpr double kLouvainFirstTolerance = 1e-2;
inline constexpr double kRefineTolerance = 1e-4;

// What a level's sweeps decide with: the run's sums and choices.
struct LevelScale {
  uint64_t m = 0;  // total edge weight of the input
  double resolution = 1.0;
  uint32_t level = 0;        // salts the rounds' hash
  double tolerance = 0;      // a sweep that gains no more ends the level
  uint8_t rounds = kRounds;  // of each sweep, at most kMaxRounds
};

// What a level's moving found.
struct LevelResult {
  double start = 0, modularity = 0;  // before and after
  bool improved() const { return modularity > start; }
};

}  // namespace louvain

struct LouvainProgram {
  static constexpr ProgramKind kKind = ProgramKind::kOperators;
  using Value = uint64_t;  // the community's least vertex id

  double resolution = 1.0;
  double threshold = 1e-7;
  uint32_t max_level = 0;               // 0: until a level gains no more than threshold
  louvain::Outcome* outcome = nullptr;  // filled where the communities are computed
  // Where every level's communities go (null: not kept): what a run cut
  // there by max_level gives, the last the run's own.
  std::vector<std::vector<uint32_t>>* levels = nullptr;

  std::vector<uint64_t> on_host(const Graph& g, host::HostOperators& h) const;  // apps/louvain/app.cc
  OperatorRun<uint64_t> on_gpus(const Graph& g, cuda::GpuOperators& d) const;   // apps/louvain/gpu.cu
};

}  // namespace chatty
