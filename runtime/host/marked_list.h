// Intersection by probing, for lists too long to merge: one list marked
// (a bit and a position per vertex), the others probed against it.
#pragma once

#include <cstdint>
#include <vector>

#if defined(__AVX512F__) && !defined(__CUDACC__)
#include <immintrin.h>
#endif

#include "runtime/base/types.h"

namespace chatty::host {

// A list marked for membership tests (intersection by probing): one bit
// per vertex of the graph, and each marked vertex's position in the list.
// One per thread, reused row after row: marking and clearing cost the
// list's length, a probe one load. Intersecting u's list with each of its
// neighbours' this way reads the neighbours' lists once and u's not again.
class MarkedList {
 public:
  // Marks list[0..len) (distinct vertices below n).
  void mark(const vid_t* list, size_t len, vid_t n) {
    if (bits_.size() < size_t(n) / 64 + 1) bits_.assign(size_t(n) / 64 + 1, 0);
    direct_ = n <= kDirectVertices;
    if (direct_ && at_.size() < n) at_.resize(n);
    list_ = list, len_ = len;
    if (!direct_) {
      size_t cap = 16;
      while (cap < 2 * len) cap *= 2;
      slot_.assign(cap, kEmpty);
    }
    for (size_t i = 0; i < len; ++i) {
      bits_[list[i] >> 6] |= uint64_t(1) << (list[i] & 63);
      if (direct_) {
        at_[list[i]] = uint32_t(i);
        continue;
      }
      size_t h = hash(list[i]);
      while (slot_[h] != kEmpty) h = (h + 1) & (slot_.size() - 1);
      slot_[h] = uint32_t(i);
    }
  }
  void clear() {
    for (size_t i = 0; i < len_; ++i) bits_[list_[i] >> 6] = 0;
  }
  bool has(vid_t w) const { return (bits_[w >> 6] >> (w & 63)) & 1; }
  // Calls hit(w) for each marked w of list[0..len), in order. Where the
  // CPU gathers (AVX-512), sixteen entries' mark bits are tested at once
  // and a branch taken per 64 entries instead of one per entry, which
  // mispredicted at every hit (triangle counting on kron:20: most of its
  // time in this loop).
  template <typename Hit>
  void probe(const vid_t* list, size_t len, Hit&& hit) const {
    size_t i = 0;
#if defined(__AVX512F__) && !defined(__CUDACC__)
    // The bits as 32-bit words: bit w of the 64-bit words is bit w & 31 of
    // word w >> 5 (x86 is little-endian).
    const int* const words = reinterpret_cast<const int*>(bits_.data());
    const __m512i low5 = _mm512_set1_epi32(31), one = _mm512_set1_epi32(1), zero = _mm512_setzero_si512();
    // The zero-masked forms: g++ 12's plain ones read an undefined
    // register (a -Wmaybe-uninitialized error).
    auto marks = [&](size_t at) {
      const __m512i ids = _mm512_loadu_si512(list + at);
      const __m512i word = _mm512_mask_i32gather_epi32(zero, 0xffff, _mm512_maskz_srli_epi32(0xffff, ids, 5), words, 4);
      const __m512i bit = _mm512_maskz_srlv_epi32(0xffff, word, _mm512_and_si512(ids, low5));
      return unsigned(_mm512_test_epi32_mask(bit, one));
    };
    // Four blocks a branch, their gathers in flight together: triangle
    // counting on kron:20 0.80 of the time of one block a branch (two: 0.86).
    for (; i + 64 <= len; i += 64)
      for (uint64_t m =
               marks(i) | uint64_t(marks(i + 16)) << 16 | uint64_t(marks(i + 32)) << 32 | uint64_t(marks(i + 48)) << 48;
           m; m &= m - 1)
        hit(list[i + unsigned(__builtin_ctzll(m))]);
    for (; i + 16 <= len; i += 16)
      for (unsigned m = marks(i); m; m &= m - 1) hit(list[i + unsigned(__builtin_ctz(m))]);
#endif
    for (; i < len; ++i)
      if (has(list[i])) hit(list[i]);
  }
  // The position of a marked w in the list.
  size_t position(vid_t w) const {
    if (direct_) return at_[w];
    size_t h = hash(w);
    while (list_[slot_[h]] != w) h = (h + 1) & (slot_.size() - 1);
    return slot_[h];
  }

 private:
  static constexpr uint32_t kEmpty = ~uint32_t(0);
  // Up to this many vertices a thread keeps a position per vertex (64 MB);
  // beyond, a small hash table of the list.
  static constexpr vid_t kDirectVertices = vid_t(1) << 24;
  size_t hash(vid_t w) const { return (uint64_t(w) * 0x9E3779B97F4A7C15ull >> 32) & (slot_.size() - 1); }
  std::vector<uint64_t> bits_;
  std::vector<uint32_t> at_, slot_;
  bool direct_ = true;
  const vid_t* list_ = nullptr;
  size_t len_ = 0;
};

}  // namespace chatty::host
