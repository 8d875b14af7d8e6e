// The ordered driver (SSSP): delta-stepping across devices, one superstep
// loop for every backend and device count. Every device relaxes its share
// of the globally lowest non-empty bucket each superstep. A device's
// ordered ops `Ops` provide:
//   void start(const std::vector<vid_t>& start_set);  // the owned ones become pending
//   void merge(int parity);      // fold peers' offers; owned vertices that improve become pending
//   void relax(uint64_t bucket); // relax the pending owned vertices in `bucket`; publish the
//                                // lowest bucket the device's pending and sent vertices are in
//   void compact(int parity);
//   Agreed sync(int parity);
// and, where a device can (a lone GPU device, kernels/wave.h):
//   uint64_t wave_items(const EngineOptions&);  // the widest pile it runs as a wave (0: none)
//   void wave(uint64_t bucket, wave::Limits);  // buckets inside one launch
//                                // while the pile stays within the limits
#pragma once

#include <algorithm>
#include <vector>

#include "runtime/base/program.h"
#include "runtime/drivers/agreed.h"
#include "runtime/drivers/wave_rule.h"

namespace chatty {

// The lowest bucket holding a device's pending or sent vertices (all ones
// when none: a device's ops set it every superstep).
inline constexpr StatusSlot<uint64_t> kBucketSlot{0, Fold::kMin};

template <typename P, typename Ops>
void drive_ordered(Ops& dev, const P& prog, const std::vector<vid_t>& start, uint64_t delta,
                   const WaveRule& waves = WaveRule()) {
  constexpr uint64_t kNone = ~uint64_t(0);
  uint64_t bucket = kNone;
  for (vid_t v : start) bucket = std::min<uint64_t>(bucket, prog.priority(prog.init(v)) / delta);
  // A superstep that improved few vertices is followed by a wave, which
  // ends by itself once the pile grows wide.
  bool wave = waves.fits(start.size(), 0);
  dev.start(start);
  for (int k = 0; bucket != kNone; ++k) {
    const int parity = k & 1;
    dev.merge(parity);
    if (wave) {
      if constexpr (requires { dev.wave(bucket, wave::Limits{}); }) dev.wave(bucket, waves.limits());
    } else {
      dev.relax(bucket);
    }
    dev.compact(parity);
    const Agreed a = dev.sync(parity);
    if (a.failed()) return;
    // Every sent record is also counted in its sender's bucket, so kNone
    // means no device has work and nothing is in flight.
    bucket = a.fold(kBucketSlot);
    wave = waves.fits(a.sum(&DeviceStatus::updated), 0);
  }
}

}  // namespace chatty
