// A host device's mechanisms for the ordered driver
// (runtime/drivers/ordered.h): its pending owned vertices in bins by
// bucket, and the push step over a bucket's live entries.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <memory>
#include <vector>

#include "runtime/base/spin_barrier.h"
#include "runtime/drivers/ordered.h"
#include "runtime/engine/device_context.h"
#include "runtime/engine/family.h"
#include "runtime/engine/migrating_push.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/host/traversal_ops.h"

namespace chatty::host {

// A priority's bucket. Power-of-two widths (kron's 1, a grid's 64) shift:
// a division costs tens of cycles, and every improvement takes one.
struct BucketWidth {
  explicit BucketWidth(uint64_t d) : delta(d), shift(std::has_single_bit(d) ? std::countr_zero(d) : -1) {}
  size_t bucket(uint64_t priority) const { return size_t(shift >= 0 ? priority >> shift : priority / delta); }
  uint64_t delta;
  int shift;  // log2(delta), or -1
};

template <typename P>
class OrderedOps {
 public:
  static constexpr Family kFamily = Family::kOrdered;  // the driver that runs it (runtime/engine/run_program.h)
  using V = typename P::Value;
  // `exposed`, `cache_bytes`: as TraversalOps's (push migration across ranks).
  OrderedOps(DeviceContext<V>& c, const GraphChunk& g, const P& prog, uint64_t delta, PushBoard<V>& board,
             ExposedMemory* exposed = nullptr, size_t cache_bytes = 0)
      : c_(c),
        g_(g),
        prog_(prog),
        width_(delta),
        frontier_(g.n),
        changed_(g.n),
        claimed_(g.n),
        board_(board),
        remote_(make_remote_push(c, g, prog, exposed, cache_bytes)) {}

  void start(const std::vector<vid_t>& s) {
    if (c_.solo()) {
      solo_ = std::make_unique<SoloBins>(size_t(omp_get_max_threads()));
      for (vid_t v : s) solo_->put(0, width_.bucket(prog_.priority(c_.values[v])), v);
      return;
    }
    for (vid_t v : s)
      if (c_.owns(v)) put(v);
  }

  void merge(int parity) {
    mine_ = DeviceStatus{};
    mine_.at(kBucketSlot) = ~uint64_t(0);
    c_.merge(
        parity, [](V a, V b) { return P::reduce(a, b); },
        [&](vid_t v) {
          if (c_.owns(v)) put(v), ++mine_.updated;
        });
  }

  void relax(uint64_t bucket) {
    constexpr size_t kAhead = DeviceContext<V>::kAhead;
    c_.begin(kCompute);
    if (solo_) {
      solo_relax(size_t(bucket));
      c_.end();
      return;
    }
    frontier_.count = 0;
    if (bucket < bins_.size()) {
      const std::vector<vid_t>& bin = bins_[bucket];
      for (size_t i = 0; i < bin.size(); ++i) {  // drop stale and repeated entries
        if (i + kAhead < bin.size()) __builtin_prefetch(&c_.values[bin[i + kAhead]]);
        const vid_t v = bin[i];
        if (bin_of(v) == bucket && c_.marks.test_and_set(v)) frontier_.ids[frontier_.count++] = v;
      }
      bins_[bucket].clear();
      for (size_t i = 0; i < frontier_.count; ++i) c_.marks.reset(frontier_.ids[i]);
    }
    const PushSums sums =
        multi::push_step(board_, c_.d, g_, prog_, c_.values.data(), frontier_, changed_, claimed_, remote_.get());
    sums.count_into(mine_);
    uint64_t& bucket_low = mine_.at(kBucketSlot);
    for (size_t i = 0; i < changed_.count; ++i) {
      if (i + kAhead < changed_.count) __builtin_prefetch(&c_.values[changed_.ids[i + kAhead]]);
      const vid_t v = changed_.ids[i];
      bucket_low = std::min<uint64_t>(bucket_low, bin_of(v));  // receivers will bin remote ones
      if (c_.owns(v)) put(v), ++mine_.updated;
    }
    for (size_t b = bucket; b < bins_.size(); ++b)
      if (!bins_[b].empty()) {
        bucket_low = std::min<uint64_t>(bucket_low, b);
        break;
      }
    c_.end();
  }

  void compact(int) { c_.compact(changed_.ids.data(), changed_.count); }

  Agreed sync(int parity) { return Agreed{c_.sync(parity, mine_)}; }

 private:
  // The only device's pending vertices, in bins per thread: nothing is sent,
  // so no shared structure is needed on the hot path, and a thread keeps
  // relaxing its own current bucket while it stays small, which saves
  // supersteps on high-diameter graphs (Meyer & Sanders' delta-stepping).
  struct SoloBins {
    explicit SoloBins(size_t threads) : bins(threads) {}
    void put(size_t t, size_t b, vid_t v) {
      auto& mine = bins[t];
      if (b >= mine.size()) mine.resize(b + 1);
      mine[b].push_back(v);
    }
    std::vector<std::vector<std::vector<vid_t>>> bins;  // [thread][bucket]
    std::vector<vid_t> frontier;
    bool filter_stale = true;  // whether relax filters the next bucket's stale entries first
  };

  void solo_relax(size_t bucket) {
    with_weights<P::kNeedsWeights>(g_.out, [&](const auto* w) { solo_relax(bucket, w); });
  }

  // wgt: the weights, wide or a byte each.
  template <typename W>
  void solo_relax(size_t bucket, const W* wgt) {
    constexpr size_t kLocalFuse = 1000;  // keep going alone below this size
    constexpr size_t kStaleAhead = 16;   // entries ahead whose values the stale filter fetches
    constexpr size_t kNone = ~size_t(0);
    SoloBins& sb = *solo_;
    // The whole graph (a lone device owns every vertex), copied to each
    // thread (firstprivate): through a reference, every store to a value
    // could be a store to its bounds.
    const CsrChunk g = g_.out;
    V* val = c_.values.data();
    size_t total = 0;
    for (auto& mine : sb.bins) total += bucket < mine.size() ? mine[bucket].size() : 0;
    if (sb.frontier.size() < total) sb.frontier.resize(total);
    std::atomic<size_t> tail{0};
    size_t next = kNone;
    const uint64_t floor = uint64_t(bucket) * width_.delta;  // the bucket's lowest priority
    // Filtered while the last step found an eighth or more of its entries
    // stale, in the filter or among the relaxations (a grid's buckets hold
    // few, and the pass would cost it 2 %).
    const bool filter = sb.filter_stale;
    uint64_t edges = 0, updated = 0, stale = 0;
    SpinBarrier barrier;
#pragma omp parallel firstprivate(g) reduction(+ : edges, updated, stale)
    {
      const size_t t = size_t(omp_get_thread_num());
      auto& mine = sb.bins[t];
      if (bucket < mine.size()) {
        // Most of a late bucket is stale entries (vertices settled in an
        // earlier bucket since they were put here): dropped in this pass,
        // whose value reads start far ahead, instead of one by one among
        // the relaxations (each a miss there: 45-70 ns an entry). No value
        // changes before the barrier below.
        std::vector<vid_t>& entries = mine[bucket];
        size_t kept = entries.size();
        if (filter) {
          kept = 0;
          for (size_t i = 0; i < entries.size(); ++i) {
            if (i + kStaleAhead < entries.size()) __builtin_prefetch(&val[entries[i + kStaleAhead]]);
            const vid_t u = entries[i];
            if (prog_.priority(std::atomic_ref<V>(val[u]).load(std::memory_order_relaxed)) >= floor)
              entries[kept++] = u;
          }
        }
        const size_t at = tail.fetch_add(kept);
        std::copy(entries.begin(), entries.begin() + long(kept), sb.frontier.begin() + long(at));
        entries.clear();
      }
      auto relax = [&](vid_t u) {
        // What the edges read, in locals: through the captures they are
        // reloaded after every atomic and every bin append, once per edge.
        V* const vals = val;
        const vid_t* const tgt = g.targets;
        const W* const w = wgt;
        const BucketWidth width = width_;
        const V vu = std::atomic_ref<V>(vals[u]).load(std::memory_order_relaxed);
        if (prog_.priority(vu) < floor) {  // stale: settled in an earlier bucket
          ++stale;
          return;
        }
        const eid_t lo = g.begin(u), hi = g.end(u);
        edges += hi - lo;
        auto edge = [&](eid_t e) {
          const vid_t v = tgt[e];
          const V offer = prog_.scatter(vu, u, v, P::kNeedsWeights ? w[e] : 1);
          if (atomic_combine(&vals[v], offer, [](V a, V b) { return P::reduce(a, b); })) {
            sb.put(t, width.bucket(prog_.priority(offer)), v);
            ++updated;
          }
        };
        // Values are random accesses: start the miss a few edges early.
        const eid_t prefetched = hi - lo > cpu::kPrefetch ? hi - cpu::kPrefetch : lo;
        eid_t e = lo;
        for (; e < prefetched; ++e) {
          __builtin_prefetch(&vals[tgt[e + cpu::kPrefetch]], 1, 3);
          edge(e);
        }
        for (; e < hi; ++e) edge(e);
      };
      barrier.wait(omp_get_num_threads());
      const size_t fresh = tail.load(std::memory_order_relaxed);
      // A late bucket holds a few dozen vertices of hundreds of edges each
      // (kron's tail: hundreds of them in a row): grabs of 64 would leave
      // all of it to one thread.
      const size_t grain = std::clamp<size_t>(fresh / (4 * size_t(omp_get_num_threads())), 1, cpu::kGrain);
#pragma omp for schedule(dynamic, grain) nowait
      for (size_t i = 0; i < fresh; ++i) {
        cpu::prefetch_rows_ahead(sb.frontier.data(), i, fresh, val, val, g.offsets, g.lo, g.targets, wgt);
        relax(sb.frontier[i]);
      }
      while (bucket < mine.size() && !mine[bucket].empty() && mine[bucket].size() < kLocalFuse) {
        std::vector<vid_t> now;
        now.swap(mine[bucket]);
        for (size_t i = 0; i < now.size(); ++i) {
          cpu::prefetch_rows_ahead(now.data(), i, now.size(), val, val, g.offsets, g.lo, g.targets, wgt);
          relax(now[i]);
        }
      }
      size_t my_next = kNone;
      for (size_t b = bucket; b < mine.size(); ++b)
        if (!mine[b].empty()) {
          my_next = b;
          break;
        }
#pragma omp critical(chatty_solo_bucket)
      next = std::min(next, my_next);
    }
    sb.filter_stale = (total - tail.load() + stale) * 8 > total;
    mine_.edges = edges;
    mine_.updated = updated;
    mine_.at(kBucketSlot) = next == kNone ? ~uint64_t(0) : uint64_t(next);
  }

  size_t bin_of(vid_t v) const { return width_.bucket(prog_.priority(c_.values[v])); }
  void put(vid_t v) {
    const size_t b = bin_of(v);
    if (b >= bins_.size()) bins_.resize(b + 1);
    bins_[b].push_back(v);
  }

  DeviceContext<V>& c_;
  const GraphChunk& g_;
  const P& prog_;
  const BucketWidth width_;
  std::vector<std::vector<vid_t>> bins_;
  Queue frontier_, changed_;
  Bitmap claimed_;
  PushBoard<V>& board_;
  std::unique_ptr<RemotePush<P>> remote_;  // null: no help across ranks
  DeviceStatus mine_;
  std::unique_ptr<SoloBins> solo_;  // the only device
};

}  // namespace chatty::host
