// Active vertex sets. A frontier is either a sparse queue of vertex ids
// (few active vertices: push steps touch only those) or a dense bitmap over
// the device's vertices (many active: pull steps test membership in O(1)).
// Shape: queue[count] vid_t, bits[ceil(|V|/64)] uint64; both in host memory
// of the device that owns the vertices.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <vector>

#include "runtime/base/buffer.h"
#include "runtime/base/types.h"

namespace chatty {

class Bitmap {
 public:
  explicit Bitmap(size_t n = 0) : n_(n), words_((n + 63) / 64) {}
  void clear() {
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < words_.size(); ++i) words_[i] = 0;
  }
  bool get(size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  // Bit i is bit i & 63 of word i >> 6 (vector tests gather the words).
  const uint64_t* words() const { return words_.data(); }
  void set(size_t i) { words_[i >> 6] |= uint64_t(1) << (i & 63); }
  // Single-writer forms (one thread owns the bitmap): no lock prefix.
  bool test_and_set(size_t i) {
    const uint64_t bit = uint64_t(1) << (i & 63);
    if (words_[i >> 6] & bit) return false;
    words_[i >> 6] |= bit;
    return true;
  }
  void reset(size_t i) { words_[i >> 6] &= ~(uint64_t(1) << (i & 63)); }
  // Clears the words of bits [lo, hi) (multiples of 64, or hi = size()) and
  // sets those of ids[0, count) that fall in it, with plain stores: for a
  // thread that owns those words. Branch-free: ids in no order fall in or
  // out at random.
  void fill_range(const vid_t* ids, size_t count, size_t lo, size_t hi) {
    for (size_t w = lo >> 6; w < (hi + 63) >> 6; ++w) words_[w] = 0;
    uint64_t elsewhere = 0;
    for (size_t i = 0; i < count; ++i) {
      const size_t v = ids[i];
      const bool mine = v - lo < hi - lo;
      uint64_t& w = mine ? words_[v >> 6] : elsewhere;
      w |= uint64_t(mine) << (v & 63);
    }
  }
  // True if this call set the bit (it was clear before).
  bool set_atomic(size_t i) {
    uint64_t bit = uint64_t(1) << (i & 63);
    std::atomic_ref<uint64_t> w(words_[i >> 6]);
    if (w.load(std::memory_order_relaxed) & bit) return false;
    return !(w.fetch_or(bit, std::memory_order_relaxed) & bit);
  }
  void set_atomic_blind(size_t i) {
    std::atomic_ref<uint64_t>(words_[i >> 6]).fetch_or(uint64_t(1) << (i & 63), std::memory_order_relaxed);
  }
  void reset_atomic(size_t i) {
    std::atomic_ref<uint64_t>(words_[i >> 6]).fetch_and(~(uint64_t(1) << (i & 63)), std::memory_order_relaxed);
  }
  size_t size() const { return n_; }
  // The set bits of [lo, hi): how many, and (collect) their indices in
  // increasing order written to out. A word at a time: testing bit by bit
  // mispredicts a branch on every other vertex of a half-full frontier.
  size_t count(size_t lo, size_t hi) const {
    size_t c = 0;
    for_words(lo, hi, [&c](size_t, uint64_t bits) { c += size_t(std::popcount(bits)); });
    return c;
  }
  size_t collect(size_t lo, size_t hi, vid_t* out) const {
    size_t k = 0;
    for_words(lo, hi, [&](size_t base, uint64_t bits) {
      for (; bits; bits &= bits - 1) out[k++] = vid_t(base + size_t(std::countr_zero(bits)));
    });
    return k;
  }
  void swap(Bitmap& o) {
    std::swap(n_, o.n_);
    words_.swap(o.words_);
  }

 private:
  // f(first index of the word, its bits masked to [lo, hi)) for each word.
  template <typename F>
  void for_words(size_t lo, size_t hi, F f) const {
    if (lo >= hi) return;
    const size_t first = lo >> 6, last = (hi - 1) >> 6;
    for (size_t w = first; w <= last; ++w) {
      uint64_t bits = words_[w];
      if (w == first) bits &= ~uint64_t(0) << (lo & 63);
      if (w == last && (hi & 63)) bits &= (uint64_t(1) << (hi & 63)) - 1;
      if (bits) f(w << 6, bits);
    }
  }
  size_t n_;
  std::vector<uint64_t> words_;
};

// Sparse frontier with a fixed capacity of |V| (each vertex at most once).
// The storage is left uninitialised: a small frontier touches (and faults
// in) only the pages it uses.
struct Queue {
  Buffer<vid_t> ids;
  size_t count = 0;
  explicit Queue(size_t capacity = 0) : ids(capacity) {}
  const vid_t* begin() const { return ids.data(); }
  const vid_t* end() const { return ids.data() + count; }
};

// Per-thread staging for the next queue: each thread appends to its own
// buffer and, when it fills, claims a slice of the shared queue with one
// atomic add (no locks).
class LocalQueue {
 public:
  // Appends to q, whose next free entry is `tail` (shared by the team).
  LocalQueue(Queue& q, std::atomic<size_t>& tail) : q_(q), tail_(tail) {}
  void push(vid_t v) {
    if (k_ == kRoom) flush();
    buf_[k_++] = v;
  }
  // Moves what is buffered into q; call before the team's last use of q.
  void flush() {
    const size_t at = tail_.fetch_add(k_, std::memory_order_relaxed);
    std::copy(buf_, buf_ + k_, q_.ids.mutable_data() + at);
    k_ = 0;
  }

 private:
  // A fixed buffer on the thread's stack: a growing vector would allocate
  // a few times in every push step, which on a grid's thin frontiers costs
  // as much as the step.
  static constexpr size_t kRoom = 512;
  Queue& q_;
  std::atomic<size_t>& tail_;
  size_t k_ = 0;
  vid_t buf_[kRoom];
};

void queue_to_bitmap(const Queue& q, Bitmap& b);
// Returns the number of set bits; writes them in increasing id order.
void bitmap_to_queue(const Bitmap& b, Queue& q);

}  // namespace chatty
