// Basic types shared by every room: vertex/edge ids, weights, and the
// host/device qualifier that lets one functor run on both backends.
#pragma once

#include <cstdint>
#include <limits>

#if defined(__CUDACC__)
#define CHATTY_HD __host__ __device__
#else
#define CHATTY_HD
#endif

namespace chatty {

using vid_t = uint32_t;     // vertex id
using eid_t = uint64_t;     // edge offset
using weight_t = uint32_t;  // SSSP edge weight

// "Unreached" for depth/distance values; printed as `inf`.
inline constexpr uint32_t kInfinity = std::numeric_limits<uint32_t>::max();
// Largest usable vertex id: kInfinity stays free as a sentinel.
inline constexpr uint64_t kMaxVertices = std::numeric_limits<vid_t>::max();

}  // namespace chatty
