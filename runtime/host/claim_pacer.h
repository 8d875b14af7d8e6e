// When a device claims blocks of a device on another rank (seed 000
// section 5.2). A claim pays off only if the thief is done with it before
// the owner runs out of its other blocks, else the owner waits for it at
// the end of the superstep. So the thief claims `take` blocks only while
// the owner has more than take x (1 + thief's time per block / owner's)
// left: both times are measured, the owner's published in its exposed
// header each superstep. A block of a grid costs its owner microseconds
// and a thief several times that (round trips), so thieves claim only
// from an owner far behind; a block of a power-law graph's hubs may cost
// its owner more than a thief that holds its rows in the migration cache.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace chatty::host {

class ClaimPacer {
 public:
  explicit ClaimPacer(int devices) : owner_seconds_(size_t(devices), 0.0), backoff_(size_t(devices)) {}

  // What `owner`'s header said its time per block is (0: not known yet).
  void heard(int owner, double seconds_per_block) { owner_seconds_[size_t(owner)] = seconds_per_block; }

  // This thief spent `seconds` on a claim of `blocks` blocks.
  void computed(double seconds, size_t blocks) {
    if (blocks == 0) return;
    const double per_block = seconds / double(blocks);
    seconds_ = seconds_ > 0 ? 0.5 * seconds_ + 0.5 * per_block : per_block;
  }

  // Whether to try claiming from `owner` in this phase. A try costs round
  // trips (the owner's worklist words) even when it claims nothing, which
  // on a phase of microseconds (a grid's wavefront) costs more than it
  // could give; so after a try that claimed nothing the next ones come 1,
  // 2, 4, ... up to kMaxGap phases apart, and a claim resets the gap.
  bool try_now(int owner) {
    Backoff& b = backoff_[size_t(owner)];
    if (b.wait == 0) return true;
    --b.wait;
    return false;
  }
  void tried(int owner, bool claimed) {
    Backoff& b = backoff_[size_t(owner)];
    b.gap = claimed ? 0 : std::min(kMaxGap, std::max(1u, 2 * b.gap));
    b.wait = b.gap;
  }

  // The fewest blocks `owner` must have left for a claim of `take` to end
  // before it does; 0 until both times are known.
  uint32_t keep(int owner, uint32_t take) const {
    const double theirs = owner_seconds_[size_t(owner)];
    if (theirs <= 0 || seconds_ <= 0) return 0;
    return uint32_t(std::min(1e9, std::ceil(double(take) * (1 + seconds_ / theirs))));
  }

 private:
  static constexpr uint32_t kMaxGap = 16;
  struct Backoff {
    uint32_t gap = 0, wait = 0;  // phases between tries; phases to skip before the next
  };
  std::vector<double> owner_seconds_;  // per device: its time per block, as its last header said
  std::vector<Backoff> backoff_;       // per device
  double seconds_ = 0;                 // this thief's time per claimed block, a moving average
};

// An owner's time per block of a phase that took `seconds` on `threads`
// threads over `blocks` blocks: what it publishes for thieves (0 if none).
inline double seconds_per_block(double seconds, int threads, double blocks) {
  return blocks > 0 ? seconds * threads / blocks : 0;
}

}  // namespace chatty::host
