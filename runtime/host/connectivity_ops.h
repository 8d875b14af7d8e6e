// A host device's mechanisms for the connectivity driver
// (runtime/drivers/connectivity.h). A lone device links on its whole team
// with no forest bookkeeping: nobody reads what it would describe.
#pragma once

#include <omp.h>

#include <memory>
#include <vector>

#include "kernels/cpu/union_find.h"
#include "runtime/base/hash.h"
#include "runtime/drivers/connectivity.h"
#include "runtime/engine/device_context.h"
#include "runtime/engine/family.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/host/wcc_forest.h"
#include "runtime/migration/work_migration.h"

namespace chatty::host {

using ConnectivityBoard = MigrationBoard<wcc::SampleTask>;

template <typename V>
class ConnectivityOps {
  static_assert(std::is_same_v<V, vid_t>, "labels are vertex ids");
  static constexpr eid_t kSample = 2;

 public:
  static constexpr Family kFamily = Family::kLinking;  // the driver that runs it (runtime/engine/run_program.h)
  ConnectivityOps(DeviceContext<V>& c, const GraphChunk& g, ConnectivityBoard& board)
      : c_(c), g_(g), board_(board), label_(c.values.data()), alone_(omp_get_max_threads() == 1) {
    if (c.solo()) return;
    forest_ = std::make_unique<wcc::Forest>(label_, g.n, c.partition().devices(), c.d);
    forest_->shared.assign_flags(c.partition().boundary.data(), g.n);
    forest_->touched.set_range(c.lo, c.hi);
  }

  void merge(int stage, int parity) {
    mine_ = DeviceStatus{};
    c_.for_each_peer_message(parity, [&](int peer, const Update<vid_t>* rec, size_t count) {
      if (stage == 1)
        forest_->take_description(peer, rec, count);
      else
        for (size_t i = 0; i < count; ++i) forest_->apply(rec[i].v, rec[i].value);
    });
  }

  // One neighbour per vertex per round, with paths compressed in between
  // so the next round's finds stay short.
  void link_sample() {
    c_.begin(kCompute);
    if (c_.solo()) {
      mine_.edges += cpu::afforest_sample(g_.out, kSample, label_);
      c_.end();
      return;
    }
    for (eid_t r = 0; r < kSample; ++r) {
      mine_.edges += sample_phase(int(r));
      compress();
    }
    c_.end();
  }

  // The vote and the rest stage read owned labels only; a remote vertex's
  // path is flattened where a link or the compaction meets it.
  void vote() {
    c_.begin(kCompute);
    if (!c_.solo()) sample_phase(-1);
    if (!g_.directed && c_.hi > c_.lo) {
      std::vector<vid_t> roots(1024);
      for (uint64_t i = 0; i < roots.size(); ++i) {
        const vid_t v = c_.lo + vid_t(hash2(0xAF, i) % (c_.hi - c_.lo));
        roots[i] = c_.solo() ? cpu::uf_find(v, label_) : label_[v];  // a lone device's sample is not compressed
      }
      vote_for_giant(roots, mine_);
    }
    c_.end();
  }

  void link_rest(vid_t giant) {
    c_.begin(kCompute);
    if (c_.solo())
      mine_.edges += cpu::afforest_rest(g_.out, kSample, giant, label_);
    else
      link_rest_shared(giant);
    c_.end();
  }

  void describe(int) {
    if (c_.solo()) return;
    c_.begin(kCompact);
    forest_->describe(c_.partition().boundary_list, description_);
    c_.end();
    c_.send(description_.data(), description_.size());
  }

  // The roots the rest stage re-parented, of shared vertices, with their roots now.
  void send_moved(int) {
    if (c_.solo()) return;
    wcc::Forest& f = *forest_;
    c_.compact_where(
        unions_.data(), unions_.size(),
        [&](vid_t v) {
          const vid_t root = cpu::uf_flatten(v, label_);  // chains of received roots stay short
          f.shared.set(root);                             // the compaction runs on this thread alone
          return root;
        },
        [&](vid_t v) { return f.shared.get(v); });
    unions_.clear();
  }

  Agreed sync(int parity) {
    mine_.migrated = migrated_;
    migrated_ = 0;
    return Agreed{c_.sync(parity, mine_)};
  }

  // Every owned vertex whose label is not its own id changed.
  void finish() {
    if (!c_.solo()) c_.add_updated(wcc::sample_phase(board_, c_.d, {label_, &g_.out, -1}, c_.lo, c_.hi).inner);
  }

 private:
  // A link round (or, round < 0, a compression) over the owned vertices.
  // A device of one core links alone, without CAS, and keeps its link
  // blocks (a peer linking beside it would need CAS on both sides, which
  // costs more than the imbalance it evens out); every compression is
  // open to peers.
  uint64_t sample_phase(int round) {
    if (round >= 0 && alone_) {
      board_.pass(c_.d);
      return wcc::link_sample<true>(g_.out, c_.lo, c_.hi, eid_t(round), label_);
    }
    const wcc::SampleSums s = wcc::sample_phase(board_, c_.d, {label_, &g_.out, round}, c_.lo, c_.hi);
    migrated_ += s.migrated;
    return s.edges;
  }

  // Between sample rounds: points the owned vertices and the boundary
  // vertices (the remote ones the device holds among them) at their roots,
  // so the next round's links are short and `describe` reads roots. In
  // ascending ids, as every parent is smaller than its child, so a find
  // mostly meets a parent compressed already.
  void compress() {
    sample_phase(-1);
    const std::vector<vid_t>& boundary = c_.partition().boundary_list;
    const auto [own_first, own_last] = c_.partition().boundary_of(c_.d);
    cpu::uf_compress_list(boundary.data(), size_t(own_first - boundary.data()), label_);
    cpu::uf_compress_list(own_last, size_t(boundary.data() + boundary.size() - own_last), label_);
  }

  // The neighbours the rest stage links are touched first (their pending
  // facts applied): inline on a device of one core, else in a pass on this
  // thread before the team links.
  void link_rest_shared(vid_t giant) {
    wcc::Forest& f = *forest_;
    const CsrChunk& out = g_.out;
    if (alone_) {
      mine_.edges +=
          wcc::link_rest<true>(out, c_.lo, c_.hi, kSample, giant, label_, unions_, [&f](vid_t v) { f.touch(v); });
    } else {
      woken_.clear();
      const wcc::Bits32& touched = f.touched;
      vid_t* label = label_;
      wcc::collect(c_.lo, c_.hi, woken_, [&, out](vid_t u, auto push) -> uint64_t {  // out copied, as in link_rest
        if (std::atomic_ref<vid_t>(label[u]).load(std::memory_order_relaxed) == giant) return 0;
        for (eid_t e = out.begin(u) + kSample; e < out.end(u); ++e)
          if (!touched.get(out.targets[e])) push(out.targets[e]);
        return 0;
      });
      for (vid_t y : woken_) f.touch(y);
      mine_.edges += wcc::link_rest<false>(out, c_.lo, c_.hi, kSample, giant, label_, unions_, [](vid_t) {});
    }
    // Flattened with prefetching, so the compaction's finds are one step each.
    cpu::uf_compress_list(unions_.data(), unions_.size(), label_);
  }

  DeviceContext<V>& c_;
  const GraphChunk& g_;
  ConnectivityBoard& board_;
  vid_t* const label_;
  const bool alone_;  // the device's team is one thread: links without CAS
  std::unique_ptr<wcc::Forest> forest_;
  std::vector<vid_t> unions_, woken_;
  std::vector<Update<vid_t>> description_;
  DeviceStatus mine_;
  uint64_t migrated_ = 0;
};

}  // namespace chatty::host
