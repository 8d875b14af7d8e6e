// One host device in a multi-device run: its chunk, its replica of the
// global vertex value array, and the phases every superstep shares - merge
// the peers' updates, compact changed boundary vertices into the send
// buffer, publish status and exchange. Driven by one thread of the outer
// OpenMP team; its kernels run on a nested team of the device's threads.
#pragma once

#include <omp.h>

#include <algorithm>
#include <bit>
#include <exception>
#include <new>
#include <vector>

#include "comm/mailboxes.h"
#include "runtime/base/frontier.h"
#include "runtime/base/parallel.h"
#include "runtime/base/status_data.h"
#include "runtime/engine/multi_stats.h"
#include "runtime/engine/superstep_sync.h"
#include "runtime/graph/partition.h"

namespace chatty {

template <typename V>
class DeviceContext {
 public:
  // `replica` (resized to n here) outlives the context: device 0's becomes
  // the run's result.
  DeviceContext(int d, const Partition& part, SuperstepSync& sync, MultiStats& stats, std::vector<V>& replica, vid_t n)
      : d(d),
        lo(part.begin(d)),
        hi(part.end(d)),
        values((resize_touched(replica, n), replica)),
        marks(n),
        part_(part),
        mb_(sync.mailboxes()),
        sync_(sync),
        stats_(stats) {}

  static constexpr size_t kAhead = 16;  // list entries ahead for value prefetches

  const int d;
  const vid_t lo, hi;
  std::vector<V>& values;  // replica of the global value array
  Bitmap marks;            // scratch dedupe flags over all vertices, all clear between uses

  bool owns(vid_t v) const { return v >= lo && v < hi; }
  // The only device: it owns every vertex and has no peers to tell.
  bool solo() const { return mb_.devices() == 1; }
  bool boundary(vid_t v) const { return part_.boundary[v] != 0; }
  const Partition& partition() const { return part_; }

  // Starts timing a phase of the current superstep.
  void begin(Phase p) { clk_.begin(p); }
  void end() { clk_.end(); }

  // Folds the peers' updates for `parity` into the replica with `reduce`;
  // calls changed(v) for each vertex whose value changed.
  template <typename Reduce, typename Changed>
  void merge(int parity, Reduce reduce, Changed changed) {
    for_each_peer_message(parity, [&](int, const Update<V>* rec, size_t count) {
      for (size_t i = 0; i < count; ++i) {
        // Records land at random vertices: start the miss a few records early.
        if (i + kAhead < count) __builtin_prefetch(&values[rec[i + kAhead].v], 1, 3);
        const vid_t v = rec[i].v;
        const V now = reduce(values[v], rec[i].value);
        if (now == values[v]) continue;
        values[v] = now;
        changed(v);
      }
    });
  }

  // Calls f(peer, records, count) with each peer's records for `parity`.
  template <typename F>
  void for_each_peer_message(int parity, F f) {
    parity_ = parity;
    if (solo()) return;
    begin(kMerge);
    for (int peer = 0; peer < mb_.devices(); ++peer) {
      if (peer == d) continue;
      const Slot& s = mb_.recv(parity, d, peer);
      f(peer, reinterpret_cast<const Update<V>*>(s.data), s.count);
    }
    end();
  }

  // Calls f(v, value) for every record the peers sent for `parity`.
  template <typename F>
  void for_each_received(int parity, F f) {
    for_each_peer_message(parity, [&f](int, const Update<V>* rec, size_t count) {
      for (size_t i = 0; i < count; ++i) f(rec[i].v, rec[i].value);
    });
  }

  // Sends `count` records as they are (timed as compaction).
  void send(const Update<V>* records, size_t count) {
    begin(kCompact);
    mb_.set_addressed(d, parity_ ^ 1, false);
    mb_.send(d, parity_ ^ 1).assign(reinterpret_cast<const std::byte*>(records), count, sizeof(Update<V>));
    end();
  }

  // Compaction: (v, value) for every listed vertex this device's compute
  // changed that is a boundary vertex (all remote ones are). The CPU form of
  // the warp-ballot compaction: per-thread buffers, then one copy each.
  void compact(const vid_t* list, size_t count) {
    compact(list, count, [this](vid_t v) { return values[v]; });
  }
  // The same, sending value_of(v) (e.g. what peers read rather than the value).
  template <typename ValueOf>
  void compact(const vid_t* list, size_t count, ValueOf value_of) {
    compact_where(list, count, value_of, [this](vid_t v) { return !owns(v) || boundary(v); });
  }
  // (v, value_of(v)) for every listed vertex with keep(v), in list order:
  // broadcast, or with readers set, addressed to each of v's readers and,
  // for a vertex of a peer (a push offer), to its owner.
  template <typename ValueOf, typename Keep>
  void compact_where(const vid_t* list, size_t count, ValueOf value_of, Keep keep) {
    if (solo()) return;  // no peer reads a send buffer
    if (readers_) {
      compact_addressed(list, count, value_of, keep);
      return;
    }
    begin(kCompact);
    mb_.set_addressed(d, parity_ ^ 1, false);
    Slot& s = mb_.send(d, parity_ ^ 1);
    if (!reserve(s, count * sizeof(Update<V>))) return end();
    auto* out = reinterpret_cast<Update<V>*>(s.data);
    size_t k = 0;
    for (size_t i = 0; i < count; ++i) {
      if (i + kAhead < count) {
        __builtin_prefetch(&values[list[i + kAhead]]);
        __builtin_prefetch(&part_.boundary[list[i + kAhead]]);
      }
      const vid_t v = list[i];
      if (keep(v)) {
        offers_ += !owns(v);
        out[k++] = Update<V>{v, value_of(v)};
      }
    }
    s.count = k;
    end();
  }

  // Addresses records to peers without a list: room for bound[p] records
  // for each peer p, then fill(out, k) appends records for peer p at
  // out[p][k[p]++] (timed as compaction).
  template <typename Fill>
  void send_addressed(const size_t* bound, Fill fill) {
    if (solo()) return;
    begin(kCompact);
    const int parity = parity_ ^ 1;
    mb_.set_addressed(d, parity, true);
    Update<V>* out[64];
    size_t k[64];
    for (int p = 0; p < mb_.devices(); ++p) {
      Slot& s = mb_.send_to(d, parity, p);
      if (!reserve(s, bound[p] * sizeof(Update<V>))) {
        for (int q = 0; q < mb_.devices(); ++q) mb_.send_to(d, parity, q).count = 0;
        return end();
      }
      out[p] = reinterpret_cast<Update<V>*>(s.data);
      k[p] = 0;
    }
    fill(out, k);
    for (int p = 0; p < mb_.devices(); ++p) mb_.send_to(d, parity, p).count = k[p];
    end();
  }

  // From now on compactions address each record to the devices that read
  // it (readers[v]: Partition's reader_masks, which must outlive this).
  void address_to_readers(const std::vector<uint64_t>& readers) { readers_ = readers.data(); }

  // Adds owned vertices whose value changed outside the supersteps' counts
  // (WCC's final compression) to the last superstep's statistics.
  void add_updated(uint64_t count) {
#pragma omp critical(chatty_multi_stats)
    if (!stats_.steps.empty()) stats_.steps.back().updated += count;
  }

  // Publishes status, meets the other devices, exchanges, meets again
  // (runtime/engine/superstep_sync.h). Returns every device's status for this
  // superstep (same on all devices), valid until the next sync.
  const std::vector<DeviceStatus>& sync(int parity, DeviceStatus mine) {
    count_sent(parity ^ 1, mine);
    return sync_.run(d, parity, mine, clk_, pull_);
  }

  bool pull_ = false;  // direction of the current superstep, for stats

  MultiStats& stats() { return stats_; }

 private:
  // Makes `s` hold `bytes`, or, where they do not fit in memory, leaves it
  // empty and fails the device's next sync: every device stops there
  // instead of waiting for one that died.
  bool reserve(Slot& s, size_t bytes) {
    try {
      s.reserve_host(bytes);
      return true;
    } catch (const std::bad_alloc&) {
      s.count = 0;
      sync_.fail_device(d, "out of memory", std::current_exception());
      return false;
    }
  }

  template <typename ValueOf, typename Keep>
  void compact_addressed(const vid_t* list, size_t count, ValueOf value_of, Keep keep) {
    size_t bound[64];
    std::fill(bound, bound + mb_.devices(), count);
    send_addressed(bound, [&](Update<V>** out, size_t* k) { address_each(list, count, value_of, keep, out, k); });
  }

  // compact_addressed's records: each kept vertex to its readers and, a
  // peer's vertex (a push offer), to its owner.
  template <typename ValueOf, typename Keep>
  void address_each(const vid_t* list, size_t count, ValueOf value_of, Keep keep, Update<V>** out, size_t* k) {
    const uint64_t me = ~(uint64_t(1) << d);
    for (size_t i = 0; i < count; ++i) {
      if (i + kAhead < count) {
        __builtin_prefetch(&values[list[i + kAhead]]);
        __builtin_prefetch(&readers_[list[i + kAhead]]);
      }
      const vid_t v = list[i];
      if (!keep(v)) continue;
      uint64_t to = readers_[v];
      if (!owns(v)) {
        const uint64_t owner = uint64_t(1) << part_.owner(v);
        offers_ += uint64_t(std::popcount((to | owner) & me));
        to |= owner;
      }
      to &= me;
      if (!to) continue;
      const Update<V> u{v, value_of(v)};
      for (; to; to &= to - 1) {
        const int p = std::countr_zero(to);
        out[p][k[p]++] = u;
      }
    }
  }

  // What this device sends for `parity`: records in its buffers, records
  // delivered to peers (a broadcast is delivered P - 1 times) and, of those,
  // push offers.
  void count_sent(int parity, DeviceStatus& mine) {
    const uint64_t peers = uint64_t(mb_.devices() - 1);
    mine.sent = mine.delivered = 0;
    if (mb_.addressed(d, parity)) {
      for (int p = 0; p < mb_.devices(); ++p)
        if (p != d) mine.sent += mb_.send_to(d, parity, p).count;
      mine.delivered = mine.sent;
      mine.offers = offers_;
    } else {
      mine.sent = mb_.send(d, parity).count;
      mine.delivered = mine.sent * peers;
      mine.offers = offers_ * peers;
    }
    offers_ = 0;
  }

  const Partition& part_;
  Mailboxes& mb_;
  SuperstepSync& sync_;
  MultiStats& stats_;
  const uint64_t* readers_ = nullptr;  // per vertex, the devices its records go to; null: broadcast
  uint64_t offers_ = 0;                // push offers compacted this superstep
  PhaseClock clk_;
  int parity_ = 0;  // of the superstep's merge; its sends go to parity_ ^ 1
};

}  // namespace chatty
