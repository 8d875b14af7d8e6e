// Work migration of a push step across ranks (RGraph, section 5.2): a
// device publishes its frontier - each task a vertex id and its value, as
// RGraph's worklist holds them - in memory exposed to the other ranks,
// beside its rows of out-edges. An idle device on another rank claims
// blocks of the frontier from the back of the owner's worklist (the
// fabric's compare-and-swap on the owner's words), reads the tasks and the
// rows they need, and relaxes them into its own replica. It keeps what it
// changed, as RGraph's migrating node keeps the states it computed in its
// own array: they reach their owners through its own compaction and
// exchange, like any update it makes. So nothing is written back, and the
// owner only waits, as in one process, until its claimed blocks are done.
// Where the owner's region is mapped here (shared windows on one node),
// the thief reads the tasks and rows in place, as a peer in the owner's
// process does. Where only gets reach it, a fetched row stays in the
// thief's migration cache: a hub is on the frontier of several supersteps
// (SSSP), and a thief helps the same owner again.
#pragma once

#include <omp.h>

#include <bit>
#include <cstring>
#include <memory>
#include <vector>

#include "kernels/cpu/push_advance.h"
#include "runtime/base/frontier.h"
#include "runtime/base/status.h"
#include "runtime/base/status_data.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/graph/partition.h"
#include "runtime/host/claim_pacer.h"
#include "runtime/host/exposed_rows.h"
#include "runtime/host/migration_cache.h"
#include "runtime/migration/exposed_memory.h"

namespace chatty::host {

// Where a device's push lies in its exposed region: a header (the owner's
// time per block, and where the weights start), the frontier's ids and
// values (at most one task per owned vertex), then the rows' out-edge
// offsets (from 0), targets and weights. Everything but the weights is
// placed by what every device knows (|rows|), so a thief reads the header
// first.
template <typename V>
struct PushRegion {
  static constexpr size_t kHeader = 0;
  size_t ids = 64, vals = 0, offsets = 0, targets = 0, weights = 0;

  PushRegion(vid_t rows, eid_t edges = 0) {
    vals = up(ids + size_t(rows) * sizeof(vid_t));
    offsets = up(vals + size_t(rows) * sizeof(V));
    targets = up(offsets + (size_t(rows) + 1) * sizeof(eid_t));
    weights = up(targets + size_t(edges) * sizeof(vid_t));
  }
  size_t bytes(eid_t edges, bool weighted) const { return weights + (weighted ? size_t(edges) * sizeof(weight_t) : 0); }

 private:
  static size_t up(size_t b) { return (b + 63) / 64 * 64; }
};

// The owner, before its run: faults its region in and writes its rows of
// out-edges `out` there, as a NIC's memory registration would at load time.
template <typename V>
void expose_push(std::byte* region, const CsrChunk& out) {
  const PushRegion<V> r(out.hi - out.lo, out.num_edges());
  expose_rows(region, r.targets, out, r.offsets, r.targets, r.weights);
  const uint64_t h[2] = {0, uint64_t(out.weights ? r.weights : 0)};
  std::memcpy(region, h, sizeof(h));
}

// Counts of one push step's blocks, own and migrated (Acc of the board).
struct PushSums {
  uint64_t edges = 0, migrated = 0, remote_blocks = 0;
  PushSums& operator+=(const PushSums& o) {
    edges += o.edges, migrated += o.migrated, remote_blocks += o.remote_blocks;
    return *this;
  }
  // Into the device's status of the step.
  void count_into(DeviceStatus& s) const {
    s.edges = edges, s.migrated += migrated, s.migrated_blocks += remote_blocks;
  }
};

// A device's side of push migration across ranks: it publishes its own
// frontier each step (owner), and computes blocks it claimed from devices
// of other ranks (thief). Not thread-safe: one thread of the device's team
// helps other ranks.
template <typename P>
class RemotePush {
 public:
  using V = typename P::Value;
  RemotePush(ExposedMemory& mem, const Partition& part, int d, Degrees degree, const P& prog, size_t cache_bytes)
      : mem_(mem), part_(part), d_(d), degree_(degree), prog_(prog), pacer_(part.devices()), cache_(cache_bytes) {}

  // Owner: the frontier `in` (owned vertices, each once: at most one per
  // row) with its values `val` (a replica: indexed by vertex) becomes what
  // thieves read, with the owner's last time per block; before the
  // worklist opens.
  void publish(const Queue& in, const V* val) {
    std::byte* region = mem_.local(d_);
    const PushRegion<V> r(part_.end(d_) - part_.begin(d_));
    auto* ids = reinterpret_cast<vid_t*>(region + r.ids);
    auto* vals = reinterpret_cast<V*>(region + r.vals);
#pragma omp parallel for schedule(static) if (in.count > 16384)
    for (size_t i = 0; i < in.count; ++i) {
      ids[i] = in.ids[i];
      vals[i] = val[in.ids[i]];
    }
    const uint64_t seconds = std::bit_cast<uint64_t>(seconds_per_block_);
    std::memcpy(region + sizeof(uint64_t) * 2, &seconds, sizeof(seconds));
    mem_.sync();
    t0_ = omp_get_wtime();
  }

  // Owner, once its blocks (`count` tasks) are done: what a block cost it,
  // for thieves to pace their claims by.
  void done(size_t count, size_t block) {
    mem_.sync();
    seconds_per_block_ =
        host::seconds_per_block(omp_get_wtime() - t0_, omp_get_max_threads(), double((count + block - 1) / block));
  }

  // Thief: before a step, the replica and claims bitmap of the step, and
  // whether other threads of its team relax into them at the same time.
  void begin_step(V* val, Bitmap* claimed, bool shared) { val_ = val, claimed_ = claimed, shared_ = shared; }

  // Thief (the board's remote computation): relaxes owner's tasks [lo, hi)
  // into the step's replica; changed() lists what it changed.
  void operator()(int owner, vid_t lo, vid_t hi, PushSums& sums) {
    const double t0 = omp_get_wtime();
    const PushRegion<V> r(part_.end(owner) - part_.begin(owner));
    uint64_t header[3];
    if (const std::byte* region = mem_.read_in_place(owner)) {
      std::memcpy(header, region, sizeof(header));
      relax_in_place(owner, region, r, header[1], lo, hi, sums);
      finish(owner, header, t0, hi - lo);
      return;
    }
    const size_t k = hi - lo;
    ids_.resize(k), vals_.resize(k);
    mem_.get(owner, PushRegion<V>::kHeader, header, sizeof(header));
    mem_.get(owner, r.ids + size_t(lo) * sizeof(vid_t), ids_.data(), k * sizeof(vid_t));
    mem_.get(owner, r.vals + size_t(lo) * sizeof(V), vals_.data(), k * sizeof(V));
    mem_.complete(owner);
    fetch_rows(owner, r, header[1]);
    for (size_t i = 0; i < k; ++i) {
      const Row& row = *rows_[i];
      const weight_t* w = row.weights.empty() ? nullptr : row.weights.data();
      relax(vals_[i], ids_[i], row.targets.data(), w, 0, eid_t(row.targets.size()), sums);
    }
    finish(owner, header, t0, k);
  }

  // Nothing to write back: the relaxations are in the replica already.
  void commit(int) {}

  // The fewest blocks `owner` must have left for a claim of `take` to pay,
  // and when to try it (ClaimPacer).
  uint32_t keep(int owner, uint32_t take) const { return pacer_.keep(owner, take); }
  bool try_now(int owner) const { return pacer_.try_now(owner, omp_get_wtime()); }
  void tried(int owner, bool claimed) { pacer_.tried(owner, claimed, omp_get_wtime()); }

  // Thief: the vertices its claims of this step changed; the step takes
  // them into its output and clears the list.
  std::vector<vid_t>& changed() { return changed_; }

  uint64_t cache_hits() const { return cache_.hits(); }
  uint64_t cache_misses() const { return cache_.misses(); }

 private:
  // Owner's tasks [lo, hi) relaxed where its region lies mapped here, as
  // a peer in the owner's process reads the owner's rows: nothing copied,
  // nothing cached.
  void relax_in_place(int owner, const std::byte* region, const PushRegion<V>& r, uint64_t weights, vid_t lo, vid_t hi,
                      PushSums& sums) {
    const vid_t base = part_.begin(owner);
    const auto* ids = reinterpret_cast<const vid_t*>(region + r.ids);
    const auto* vals = reinterpret_cast<const V*>(region + r.vals);
    const auto* off = reinterpret_cast<const eid_t*>(region + r.offsets);
    const auto* tgt = reinterpret_cast<const vid_t*>(region + r.targets);
    const auto* w = weights ? reinterpret_cast<const weight_t*>(region + weights) : nullptr;
    for (vid_t i = lo; i < hi; ++i) {
      const vid_t u = ids[i];
      relax(vals[i], u, tgt, w, off[u - base], off[u - base + 1], sums);
    }
  }

  // Task (u, its value vu)'s edges [first, last) of rows `tgt` and `w`
  // relaxed into the step's replica, what changed listed for changed().
  void relax(V vu, vid_t u, const vid_t* tgt, const weight_t* w, eid_t first, eid_t last, PushSums& sums) {
    auto push = [this](vid_t v) { changed_.push_back(v); };
    uint64_t scout = 0;  // unused: the step's scout count is summed over its output (cpu::degree_sum)
    if (shared_)         // other threads of the team relax into the replica too
      cpu::detail::relax_row<true>(degree_, prog_, vu, u, tgt, w, first, last, val_, *claimed_, scout, sums.edges,
                                   push);
    else
      cpu::detail::relax_row<false>(degree_, prog_, vu, u, tgt, w, first, last, val_, *claimed_, scout, sums.edges,
                                    push);
  }

  // What the owner's header said, and what a claim of `tasks` tasks cost.
  void finish(int owner, const uint64_t* header, double t0, size_t tasks) {
    pacer_.heard(owner, std::bit_cast<double>(header[2]));
    pacer_.computed(omp_get_wtime() - t0, (tasks + cpu::kGrain - 1) / cpu::kGrain);
  }

  struct Row {
    std::vector<vid_t> targets;
    std::vector<weight_t> weights;  // empty when unweighted
  };
  using Held = std::shared_ptr<const Row>;

  // rows_[i] = the row of ids_[i], from the cache or fetched: every
  // missing row's offsets, then its targets (and weights at `weights`,
  // 0: none), one get each.
  void fetch_rows(int owner, const PushRegion<V>& r, uint64_t weights) {
    const vid_t base = part_.begin(owner);
    rows_.assign(ids_.size(), nullptr);
    missing_.clear();
    for (size_t i = 0; i < ids_.size(); ++i) {
      if (const Held* held = cache_.find(ids_[i]))
        rows_[i] = *held;
      else
        missing_.push_back(i);
    }
    if (missing_.empty()) return;
    bounds_.resize(2 * missing_.size());
    for (size_t j = 0; j < missing_.size(); ++j)
      mem_.get(owner, r.offsets + size_t(ids_[missing_[j]] - base) * sizeof(eid_t), &bounds_[2 * j], 2 * sizeof(eid_t));
    mem_.complete(owner);
    std::vector<std::shared_ptr<Row>> fresh(missing_.size());
    for (size_t j = 0; j < missing_.size(); ++j) {
      const eid_t first = bounds_[2 * j], deg = bounds_[2 * j + 1] - first;
      auto row = std::make_shared<Row>();
      row->targets.resize(deg);
      if (deg) mem_.get(owner, r.targets + size_t(first) * sizeof(vid_t), row->targets.data(), deg * sizeof(vid_t));
      if (weights) {
        row->weights.resize(deg);
        if (deg)
          mem_.get(owner, weights + size_t(first) * sizeof(weight_t), row->weights.data(), deg * sizeof(weight_t));
      }
      fresh[j] = std::move(row);
    }
    mem_.complete(owner);
    for (size_t j = 0; j < missing_.size(); ++j) {
      const size_t bytes =
          sizeof(Row) + fresh[j]->targets.size() * sizeof(vid_t) + fresh[j]->weights.size() * sizeof(weight_t);
      rows_[missing_[j]] =
          cache_.insert(ids_[missing_[j]], std::move(fresh[j]), bytes);  // a frontier lists a vertex once
    }
  }

  ExposedMemory& mem_;
  const Partition& part_;
  const int d_;
  const Degrees degree_;
  const P& prog_;
  ClaimPacer pacer_;
  MigrationCache<Held> cache_;
  V* val_ = nullptr;           // thief: the step's replica
  Bitmap* claimed_ = nullptr;  // thief: the step's claims
  bool shared_ = false;
  double seconds_per_block_ = 0;  // owner: its last step's
  double t0_ = 0;                 // owner: when its step's worklist opened
  std::vector<vid_t> ids_;
  std::vector<V> vals_;
  std::vector<Held> rows_;  // held while a claim is relaxed, whatever the cache evicts meanwhile
  std::vector<size_t> missing_;
  std::vector<eid_t> bounds_;
  std::vector<vid_t> changed_;
};

}  // namespace chatty::host
