// Leiden communities (Traag, Waltman and van Eck, 2019): Louvain's levels
// (apps/louvain/program.h: moving in rounds, contraction), with the
// refinement of refine.h between moving and contraction: a level
// contracts the refined communities, which are connected, and the next
// level starts from the partition the level moved to. Levels stop as
// Louvain's do (no gain, `threshold`, or nothing refined to contract); a
// community the last level leaves disconnected is split into its connected
// parts, so every community is connected. Passes of levels follow, each
// from the best one's communities (its first level refines them even where
// no vertex moves) and in an order of its own (salt_of), as igraph's
// n_iterations=-1 iterates, until kQuietPasses in a row gain no more than
// kPassGain (one gaining no more than `threshold` is not kept); `max_level` caps the
// levels of all passes together.
// Deterministic: the same communities at every device count. An operator program: the team shares each step; on GPU
// devices one device runs the same passes (device_levels.h); under ranks, rank 0 computes and the others add zeros.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/louvain/program.h"
#include "runtime/base/hash.h"
#include "runtime/base/program.h"
#include "runtime/engine/operator_program.h"
#include "runtime/graph/graph.h"

namespace chatty {

namespace leiden {

// The refinement's sweep draws its rounds apart from every moving sweep's.
inline constexpr uint32_t kRefineSweep = 0xFFFFFFFFu;

// Leiden's sweeps, moving and refining, in the most rounds: of two
// neighbours one nearly always sees the other's move, as in igraph's
// sequential queue (kron:16, one salt, passes each in its own order and
// the draw below at width 0.001: 0.1010 against 0.1003 with Louvain's 32).
inline constexpr uint8_t kLeidenRounds = louvain::kMaxRounds;

// The rounds' hash salt of a pass's level: each pass visits the vertices
// in an order of its own, as each of igraph's iterations draws a new one,
// so a pass finds moves the one before could not and the passes go on
// while they gain (kron:16, greedy refinement: 34 passes to 0.1005 against
// 11 to 0.0996 with one order for all).
// A pass's levels are salt_of(pass, 0) + level (a pass has far fewer than
// 2^16 levels).
CHATTY_HD inline uint32_t salt_of(uint32_t pass, uint32_t level) { return (pass << 16) | level; }

// Passes stop after kQuietPasses in a row each gain no more than
// kPassGain modularity (a pass gaining no more than `threshold` is not
// kept): the later ones of an order each gain less and less (kron:16: 9e-5
// a pass over passes 5-10, 1.3e-5 over 20-40, 4e-6 over 40-67), and
// kron:20's passes take 6.5 s each on this VM. One quiet pass is not the
// end: the next, in another order, may gain again (grid:300x300 0.95861
// after one, 0.95878 after three, igraph's 0.9588).
inline constexpr double kPassGain = 1e-5;
inline constexpr int kQuietPasses = 3;

// The passes' end, kept by the host run, the GPU run and the reference
// alike: end_after(gain) takes each pass after the first (its gain over
// the best one's) and says whether the passes end with it.
class QuietPasses {
 public:
  bool end_after(double gain) {
    quiet_ = gain <= kPassGain ? quiet_ + 1 : 0;
    return quiet_ >= kQuietPasses;
  }

 private:
  int quiet_ = 0;  // passes in a row that gained no more than kPassGain
};

// The community a vertex joins in the refinement. igraph's draws one with
// probability proportional to exp(gain / 0.01), gains in edge weight: the
// best, but for near ties, among which its draw is close to uniform (a
// leaf with one edge to each of several communities, whose gains differ
// by their degrees over 2m). Here: among the candidates (staying alone, at
// gain 0, one of them) within kTieBand of the best gain, the one of least
// hash, drawn per vertex from the level's salt. Free of the order the
// candidates come in, and exact, so every backend draws alike. kron:16
// over five salts: median 0.1009 (0.1000-0.1011) with igraph's width
// (0.01), 0.1005 with 0.001; the greedy choice 0.1005; igraph's own
// 0.1008 (0.1005-0.1011) over its seeds.
inline constexpr double kTieBand = 1e-2;
class TieDraw {
 public:
  // After the best gain is known: `v` stays alone unless a candidate
  // offered wins the draw.
  CHATTY_HD TieDraw(uint32_t salt, vid_t v, double best_gain)
      : key_(hash2(salt, v)), floor_(best_gain - kTieBand), pick_(v), least_(~uint64_t(0)) {
    if (floor_ <= 0) least_ = hash2(key_, v);
  }
  CHATTY_HD void offer(vid_t c, double gain) {
    if (!(gain >= 0) || gain < floor_) return;
    if (const uint64_t h = hash2(key_, c); h < least_) least_ = h, pick_ = c;
  }
  CHATTY_HD vid_t pick() const { return pick_; }

 private:
  uint64_t key_;
  double floor_;
  vid_t pick_;
  uint64_t least_;
};

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
  uint32_t passes = 0;                  // at most this many passes (0: until kQuietPasses gain little)
  // Where every level's communities go (null: not kept): what a run cut
  // there by max_level gives, the last the run's own.
  std::vector<std::vector<uint32_t>>* levels = nullptr;

  std::vector<uint64_t> on_host(const Graph& g, host::HostOperators& h) const;  // apps/leiden/app.cc
  OperatorRun<uint64_t> on_gpus(const Graph& g, cuda::GpuOperators& d) const;   // apps/leiden/gpu.cu
};

}  // namespace chatty
