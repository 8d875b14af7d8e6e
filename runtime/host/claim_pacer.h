// When a device claims blocks of a device on another rank (RGraph
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

  // Whether to try claiming from `owner` at time `now` (seconds). A try
  // costs round trips (the owner's worklist words) even when it claims
  // nothing, which next to phases of microseconds (a grid's wavefront)
  // costs more than it could give; so after a try that claimed nothing the
  // next waits 16 us, then twice as long after each that claims nothing,
  // up to 1 ms, and a claim resets the wait. Phases of milliseconds (a
  // gather's) are tried every time.
  bool try_now(int owner, double now) const { return now >= backoff_[size_t(owner)].next; }
  void tried(int owner, bool claimed, double now) {
    Backoff& b = backoff_[size_t(owner)];
    b.gap = claimed ? 0 : std::clamp(2 * b.gap, kFirstGap, kMaxGap);
    b.next = now + b.gap;
  }

  // The fewest blocks `owner` must have left for a claim of `take` to end
  // before it does; 0 until both times are known.
  uint32_t keep(int owner, uint32_t take) const {
    const double theirs = owner_seconds_[size_t(owner)];
    if (theirs <= 0 || seconds_ <= 0) return 0;
    return uint32_t(std::min(1e9, std::ceil(double(take) * (1 + seconds_ / theirs))));
  }

 private:
  static constexpr double kFirstGap = 16e-6, kMaxGap = 1e-3;
  struct Backoff {
    double gap = 0, next = 0;  // seconds from a try to the next; when the next may be
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
