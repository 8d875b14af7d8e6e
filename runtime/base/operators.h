// The operators' shared vocabulary, the same on both backends: what an
// operator's value may be, what an advance's edge functor answers, the
// directions, and list intersection. The operators themselves are
// mechanisms of each backend (runtime/host/operators.h,
// runtime/cuda/operators.cuh); an app composes them into a driver.
#pragma once

#include <atomic>
#include <concepts>
#include <cstddef>
#include <type_traits>

#include "runtime/base/types.h"

namespace chatty::ops {

// A value an operator carries per vertex or reduces: copied as bytes on
// either backend, and at most 16 bytes (one vector load on a GPU).
template <typename T>
concept Value = std::is_trivially_copyable_v<T> && sizeof(T) <= 16;

// What an advance's edge functor f(u, v, e) answers, as bits: v joins the
// next frontier (the functor claimed it: each vertex must join once), and
// the edge e is marked (in the advance's EdgeMarks, by the CSR's edge
// number). kStop ends a pull advance's scan of v's in-edges (v is done).
enum Visit : unsigned { kSkip = 0, kJoin = 1, kMark = 2, kStop = 4 };

// An edge functor that may run pull: it says which vertices may still join
// (only those scan their in-edges).
template <typename F>
concept Pullable = requires(const F& f, vid_t v) {
  { f.wanted(v) } -> std::convertible_to<bool>;
};

// A pullable functor with a visit for pull steps, pulled(u, v, e): there v
// is written by the one thread that scans its in-edges, so the visit needs
// no atomics, whose fences would keep the far vertices' misses apart.
template <typename F>
concept PullsAlone = Pullable<F> && requires(const F& f, vid_t u, vid_t v, eid_t e) {
  { f.pulled(u, v, e) } -> std::convertible_to<unsigned>;
};

// An advance functor that names what it reads of an edge's far vertex
// (fetch_ahead(v)): a host push advance calls it some edges ahead of the
// visit, so that the misses of a long row overlap.
template <typename F>
concept FetchesAhead = requires(const F& f, vid_t v) {
  f.fetch_ahead(v);
};

// Which way an advance walks: from the frontier over out-edges (push), or
// from every wanted vertex over its in-edges into the frontier (pull);
// kAuto leaves it to the engine's rule (Beamer's, as the traversal family
// applies it: runtime/engine/superstep_decisions.h).
enum class Direction { kAuto, kPush, kPull };

// Intersection of two ascending lists without repeats: calls
// on_common(i, j) for a[i] == b[j], in order, and returns the entries of b
// read (b is the list walked against a).
// Entries are compared only below `bound` (lists cut at a vertex, as
// ordered triangle counting needs); kInfinity reads them whole.
template <typename F>
CHATTY_HD inline uint64_t intersect_sorted(const vid_t* a, size_t na, const vid_t* b, size_t nb, F&& on_common,
                                           vid_t bound = kInfinity) {
  size_t i = 0, j = 0;
  while (i < na && j < nb) {
    const vid_t x = a[i], y = b[j];
    if (y >= bound) break;  // an a[i] past the bound only moves j on to it
    if (x == y) on_common(i, j);
    i += x <= y;
    j += y <= x;
  }
  return j;
}

// Intersection of two ascending lists without repeats, in order:
// on_common(i, j) for a[i] == b[j]; returns the entries read. A merge where
// their lengths are near; else each entry of the shorter one searched for
// in the rest of the longer (a hub against a leaf costs the leaf's length
// times a logarithm, not the hub's length).
template <typename F>
CHATTY_HD inline uint64_t intersect_searching(const vid_t* a, size_t na, const vid_t* b, size_t nb, F&& on_common) {
  if (na * 16 >= nb && nb * 16 >= na) return na + intersect_sorted(a, na, b, nb, on_common);
  const bool swapped = na > nb;
  const vid_t* s = swapped ? b : a;  // the shorter
  const vid_t* l = swapped ? a : b;
  const size_t ns = swapped ? nb : na, nl = swapped ? na : nb;
  uint64_t read = ns;
  size_t lo = 0;
  for (size_t i = 0; i < ns && lo < nl; ++i) {
    size_t hi = nl;  // the first l[j] >= s[i] lies in [lo, hi]
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if (l[mid] < s[i]) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
      ++read;
    }
    if (lo < nl && l[lo] == s[i]) {
      if (swapped) {
        on_common(lo, i);
      } else {
        on_common(i, lo);
      }
    }
  }
  return read;
}

// The number of entries two ascending lists without repeats share, and the
// entries read (intersect_searching's).
struct Common {
  uint32_t count = 0;
  uint64_t read = 0;
};
CHATTY_HD inline Common count_common(const vid_t* a, size_t na, const vid_t* b, size_t nb) {
  Common c;
  c.read = intersect_searching(a, na, b, nb, [&c](size_t, size_t) { ++c.count; });
  return c;
}

// Atomics a functor written once for both backends uses on shared
// per-vertex values: the GPU's instructions in device code, std::atomic_ref
// (relaxed: the operators' barriers order the steps) on the host.
template <typename T>
concept Word32 = std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>;
// What loads and stores take: 32-bit values and 64-bit counts.
template <typename T>
concept Word = Word32<T> || std::is_same_v<T, uint64_t>;
template <Word T>
CHATTY_HD inline T atomic_load(const T* p) {
#ifdef __CUDA_ARCH__
  return *static_cast<const volatile T*>(p);
#else
  return std::atomic_ref<T>(*const_cast<T*>(p)).load(std::memory_order_relaxed);
#endif
}
template <Word T>
CHATTY_HD inline void atomic_store(T* p, std::type_identity_t<T> v) {
#ifdef __CUDA_ARCH__
  *static_cast<volatile T*>(p) = v;
#else
  std::atomic_ref<T>(*p).store(v, std::memory_order_relaxed);
#endif
}
// Swaps *p from `expected` to `desired`; returns what *p held.
template <Word32 T>
CHATTY_HD inline T atomic_cas(T* p, std::type_identity_t<T> expected, std::type_identity_t<T> desired) {
#ifdef __CUDA_ARCH__
  return atomicCAS(p, expected, desired);
#else
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired, std::memory_order_relaxed);
  return expected;
#endif
}
// Stores v in *p; returns what *p held.
CHATTY_HD inline uint32_t atomic_exchange(uint32_t* p, uint32_t v) {
#ifdef __CUDA_ARCH__
  return atomicExch(p, v);
#else
  return std::atomic_ref<uint32_t>(*p).exchange(v, std::memory_order_relaxed);
#endif
}
// Subtracts v from *p; returns what *p held.
CHATTY_HD inline uint32_t atomic_sub(uint32_t* p, uint32_t v) {
#ifdef __CUDA_ARCH__
  return atomicSub(p, v);
#else
  return std::atomic_ref<uint32_t>(*p).fetch_sub(v, std::memory_order_relaxed);
#endif
}
// Adds v to *p; returns what *p held.
CHATTY_HD inline uint32_t atomic_add(uint32_t* p, uint32_t v) {
#ifdef __CUDA_ARCH__
  return atomicAdd(p, v);
#else
  return std::atomic_ref<uint32_t>(*p).fetch_add(v, std::memory_order_relaxed);
#endif
}
CHATTY_HD inline void atomic_add(double* p, double v) {
#ifdef __CUDA_ARCH__
  atomicAdd(p, v);
#else
  std::atomic_ref<double>(*p).fetch_add(v, std::memory_order_relaxed);
#endif
}

// Sets the bits of v in *p.
CHATTY_HD inline void atomic_or(uint32_t* p, uint32_t v) {
#ifdef __CUDA_ARCH__
  atomicOr(p, v);
#else
  std::atomic_ref<uint32_t>(*p).fetch_or(v, std::memory_order_relaxed);
#endif
}
// 64-bit counts (queue lengths, bucket minima): adds v, returns what *p held.
CHATTY_HD inline uint64_t atomic_add(uint64_t* p, uint64_t v) {
#ifdef __CUDA_ARCH__
  static_assert(sizeof(uint64_t) == sizeof(unsigned long long));
  return atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
#else
  return std::atomic_ref<uint64_t>(*p).fetch_add(v, std::memory_order_relaxed);
#endif
}
// Lowers *p to v where v is less; returns what *p held.
CHATTY_HD inline uint64_t atomic_min(uint64_t* p, uint64_t v) {
#ifdef __CUDA_ARCH__
  return atomicMin(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
#else
  std::atomic_ref<uint64_t> a(*p);
  uint64_t now = a.load(std::memory_order_relaxed);
  while (v < now && !a.compare_exchange_weak(now, v, std::memory_order_relaxed)) {
  }
  return now;
#endif
}
// Folds `offer` into *p with P::reduce; true if the value changed. Reads
// first, so an offer that cannot improve costs no atomic (Ito et al.: a
// CAS loop, never a lock).
template <typename P>
CHATTY_HD inline bool reduce_into(uint32_t* p, uint32_t offer) {
  uint32_t old = atomic_load(p);
  while (true) {
    const uint32_t now = P::reduce(old, offer);
    if (now == old) return false;
    const uint32_t prev = atomic_cas(p, old, now);
    if (prev == old) return true;
    old = prev;
  }
}

// The segment of item j: the last i < count with starts[i] <= j (starts
// ascending from 0), by binary search; a thread an item finds its row this way.
CHATTY_HD inline uint64_t segment_of(const uint64_t* starts, uint64_t count, uint64_t j) {
  uint64_t lo = 0, hi = count;
  while (hi - lo > 1) {
    const uint64_t mid = (lo + hi) / 2;
    if (starts[mid] <= j)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// The sum of two values: a reduce's or a gather's fold, on either backend.
struct Plus {
  template <typename T>
  CHATTY_HD T operator()(T a, T b) const {
    return a + b;
  }
};

}  // namespace chatty::ops
