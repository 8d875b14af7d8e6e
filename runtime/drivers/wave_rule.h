// When a lone device runs its next supersteps as a wave (kernels/wave.h):
// the policy, apart from the launch. A wave pays off where a superstep's
// work is a few microseconds (a grid's or a road's thin frontier) and
// costs where a frontier is wide (a power-law graph's middle levels, which
// the load-balanced kernels spread better); the frontier's size decides,
// before each superstep, from the status every device already has.
#pragma once

#include <cstdint>

#include "kernels/wave.h"
#include "runtime/base/engine_options.h"

namespace chatty {

class WaveRule {
 public:
  // Levels one launch runs at most before the host looks in.
  static constexpr uint32_t kLevels = 1024;
  // A wave's frontier has at most this many out-edges a vertex on average.
  static constexpr uint64_t kEdgesPerItem = 8;
  // Lanes per frontier vertex: the low degrees of a thin frontier.
  static constexpr uint32_t kGroup = 4;

  WaveRule() = default;
  // `items`: the widest frontier a wave runs (0: none).
  explicit WaveRule(uint64_t items) : items_(items) {}

  bool on() const { return items_ > 0; }
  // Whether a frontier of `queued` vertices with `scout` out-edges runs as a wave.
  bool fits(uint64_t queued, uint64_t scout) const {
    return on() && queued <= items_ && scout <= items_ * kEdgesPerItem;
  }
  wave::Limits limits() const { return wave::Limits{items_, items_ * kEdgesPerItem, kLevels, kGroup}; }

 private:
  uint64_t items_ = 0;
};

// The rule of a device that can run waves, as its option asks
// (--gpu_wave, --cpu_wave); else none.
template <typename Ops>
WaveRule wave_rule_of(const Ops& dev, const EngineOptions& opt) {
  if constexpr (requires { dev.wave_items(opt); }) return WaveRule(dev.wave_items(opt));
  return WaveRule();
}

}  // namespace chatty
