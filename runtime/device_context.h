// One host device in a multi-device run: its chunk, its replica of the
// global vertex value array, and the phases every superstep shares - merge
// the peers' updates, compact changed boundary vertices into the send
// buffer, publish status and exchange. Driven by one thread of the outer
// OpenMP team; its kernels run on a nested team of the device's threads.
#pragma once

#include <omp.h>

#include <algorithm>
#include <vector>

#include "comm/mailboxes.h"
#include "comm/transport.h"
#include "runtime/frontier.h"
#include "runtime/multi_stats.h"
#include "runtime/partition.h"
#include "runtime/status_data.h"

namespace chatty {

// All devices' status, double-buffered by parity like the receive buffers.
class StatusBoard {
 public:
  explicit StatusBoard(int devices) : s_(size_t(2 * devices)), devices_(devices) {}
  DeviceStatus& at(int parity, int d) { return s_[size_t(parity * devices_ + d)]; }
  int devices() const { return devices_; }

 private:
  std::vector<DeviceStatus> s_;
  int devices_;
};

template <typename V>
class DeviceContext {
 public:
  // `replica` (resized to n here) outlives the context: device 0's becomes
  // the run's result.
  DeviceContext(int d, const Partition& part, Mailboxes& mb, StatusBoard& board, TransportPolicy& policy,
                MultiStats& stats, std::vector<V>& replica, vid_t n)
      : d(d),
        lo(part.begin(d)),
        hi(part.end(d)),
        values((replica.resize(n), replica)),
        marks(n),
        part_(part),
        mb_(mb),
        board_(board),
        policy_(policy),
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
  void begin(Phase p) {
    phase_ = p;
    t0_ = omp_get_wtime();
  }
  void end() { phase_time_[phase_] += omp_get_wtime() - t0_; }

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
  // (v, value_of(v)) for every listed vertex with keep(v), in list order.
  template <typename ValueOf, typename Keep>
  void compact_where(const vid_t* list, size_t count, ValueOf value_of, Keep keep) {
    if (solo()) return;  // no peer reads a send buffer
    begin(kCompact);
    Slot& s = mb_.send(d, parity_ ^ 1);
    s.reserve_host(count * sizeof(Update<V>));
    auto* out = reinterpret_cast<Update<V>*>(s.data);
    size_t k = 0;
    for (size_t i = 0; i < count; ++i) {
      if (i + kAhead < count) {
        __builtin_prefetch(&values[list[i + kAhead]]);
        __builtin_prefetch(&part_.boundary[list[i + kAhead]]);
      }
      const vid_t v = list[i];
      if (keep(v)) out[k++] = Update<V>{v, value_of(v)};
    }
    s.count = k;
    end();
  }

  // Adds owned vertices whose value changed outside the supersteps' counts
  // (WCC's final compression) to the last superstep's statistics.
  void add_updated(uint64_t count) {
#pragma omp critical(chatty_multi_stats)
    if (!stats_.steps.empty()) stats_.steps.back().updated += count;
  }

  // Publishes status, meets the other devices, exchanges, meets again.
  // Returns every device's status for this superstep (same on all devices).
  std::vector<DeviceStatus> sync(int parity, DeviceStatus mine) {
    if (solo()) {  // nobody to meet or tell
      mine.sent = 0;
      std::vector<DeviceStatus> all{mine};
      record(all);
      return all;
    }
    begin(kWait);
    mine.sent = mb_.send(d, parity ^ 1).count;
    board_.at(parity, d) = mine;
#pragma omp barrier
    end();
    std::vector<DeviceStatus> all(size_t(mb_.devices()));
    for (int p = 0; p < mb_.devices(); ++p) all[size_t(p)] = board_.at(parity, p);
    begin(kExchange);
    uint64_t total_sent = 0;
    for (auto& s : all) total_sent += s.sent;
    Transport& t = policy_.choose(DataClass::kApplication, total_sent * sizeof(Update<V>));
    t.exchange(mb_, d, parity ^ 1);
    end();
    // Every device makes the same choice, so all skip this barrier or none.
    if (!t.receiver_driven()) {
      begin(kWait);
#pragma omp barrier
      end();
    }
    record(all);
    return all;
  }

 private:
  // Device 0 appends the superstep's totals; phase times are averaged.
  void record(const std::vector<DeviceStatus>& all) {
#pragma omp critical(chatty_multi_stats)
    {
      record_step(stats_, step_, d, phase_time_, all, sizeof(Update<V>));
      if (d == 0) stats_.steps[step_].pull = pull_;
    }
    for (double& t : phase_time_) t = 0;
    ++step_;
  }

 public:
  bool pull_ = false;  // direction of the current superstep, for stats

 private:
  const Partition& part_;
  Mailboxes& mb_;
  StatusBoard& board_;
  TransportPolicy& policy_;
  MultiStats& stats_;
  Phase phase_ = kMerge;
  int parity_ = 0;  // of the superstep's merge; its sends go to parity_ ^ 1
  double t0_ = 0;
  double phase_time_[kPhases] = {0, 0, 0, 0, 0};
  size_t step_ = 0;
};

}  // namespace chatty
