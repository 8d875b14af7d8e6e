// Counter-based randomness: every random draw is a pure function of
// (seed, index), so generated graphs and weights are identical for any
// thread count and any iteration order.
#pragma once

#include <cstdint>

#include "runtime/base/types.h"

namespace chatty {

CHATTY_HD inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

CHATTY_HD inline uint64_t hash2(uint64_t seed, uint64_t a) { return splitmix64(splitmix64(seed) ^ a); }

// Uniform double in [0,1) from 53 random bits.
CHATTY_HD inline double to_unit(uint64_t r) { return double(r >> 11) * (1.0 / 9007199254740992.0); }

}  // namespace chatty
