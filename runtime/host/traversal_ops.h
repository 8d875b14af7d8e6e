// A host device's mechanisms for the frontier driver
// (runtime/drivers/traversal.h): the active queue and the changed list of
// its owned vertices, the frontier bitmaps of pull steps, and push and pull
// steps whose blocks idle peers may compute (work migration; push steps'
// blocks across ranks too, pull steps' inside a rank only, since they
// write the owner's values and frontier).
#pragma once

#include <memory>
#include <vector>

#include "kernels/cpu/pull_advance.h"
#include "kernels/cpu/push_wave.h"
#include "runtime/drivers/traversal.h"
#include "runtime/engine/device_context.h"
#include "runtime/engine/family.h"
#include "runtime/engine/migrating_push.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/host/remote_push.h"

namespace chatty::host {

template <typename V>
using PushBoard = MigrationBoard<multi::PushTask<V>>;
template <typename V>
using PullBoard = MigrationBoard<cpu::PullTask<V>>;

// The device's driving thread alone touches its queue and marks here.
inline void push_unique(Queue& q, Bitmap& in_q, vid_t v) {
  if (in_q.test_and_set(v)) q.ids[q.count++] = v;
}

inline void clear_marks(Queue& q, Bitmap& b) {
  for (size_t i = 0; i < q.count; ++i) b.reset(q.ids[i]);
  q.count = 0;
}

// A device's side of push migration across ranks, or null without exposed memory.
template <typename P>
std::unique_ptr<RemotePush<P>> make_remote_push(const DeviceContext<typename P::Value>& c, const GraphChunk& g,
                                                const P& prog, ExposedMemory* exposed, size_t cache_bytes) {
  if (!exposed || c.solo()) return nullptr;
  return std::make_unique<RemotePush<P>>(*exposed, c.partition(), c.d, g.out_degree, prog, cache_bytes);
}

template <typename P>
class TraversalOps {
 public:
  static constexpr Family kFamily = Family::kTraversal;  // the driver that runs it (runtime/engine/run_program.h)
  using V = typename P::Value;
  // With `exposed` (this device's region there holds its push: every
  // device of the run has one or none), peers on other ranks relax blocks
  // of its push steps and it theirs, keeping `cache_bytes` of the rows it
  // fetched.
  TraversalOps(DeviceContext<V>& c, const GraphChunk& g, const P& prog, bool can_pull, PushBoard<V>& push_board,
               PullBoard<V>& pull_board, ExposedMemory* exposed = nullptr, size_t cache_bytes = 0)
      : c_(c),
        g_(g),
        prog_(prog),
        can_pull_(can_pull),
        active_(g.n),
        changed_(g.n),
        arrived_(can_pull ? g.n : 0),
        claimed_(g.n),
        front_(can_pull ? g.n : 0),
        next_(can_pull ? g.n : 0),
        push_board_(push_board),
        pull_board_(pull_board),
        remote_(make_remote_push(c, g, prog, exposed, cache_bytes)) {
    if (can_pull) {
      const vid_t first = cpu::pull_blocks_begin(c.lo);
      resize_touched(pending_ids_, c.hi - first);
      pending_count_.resize((c.hi - first + cpu::kPullBlock - 1) / cpu::kPullBlock);
    }
  }

  void start(const std::vector<vid_t>& s) {
    listed_ = false;
    if (c_.solo()) {  // no merge ever adds to the queue, so it needs no marks
      std::copy(s.begin(), s.end(), active_.ids.mutable_data());
      active_.count = s.size();
      front_current_ = false;
      return;
    }
    for (vid_t v : s) {
      if (c_.owns(v)) push_unique(active_, c_.marks, v);
      if (can_pull_) front_.set(v);
    }
  }

  void merge(int parity) {
    mine_ = DeviceStatus{};
    c_.merge(
        parity, [](V a, V b) { return P::reduce(a, b); },
        [&](vid_t v) {
          if (c_.owns(v)) push_unique(active_, c_.marks, v), ++mine_.updated;
          if (!can_pull_) return;
          if (arrived_.count == g_.n) make_front_current();  // no room left
          if (front_current_)
            front_.set(v);
          else
            arrived_.ids[arrived_.count++] = v;  // the bitmap is built if a pull step comes
        });
  }

  void push() {
    c_.begin(kCompute);
    PushSums sums;
    if (c_.solo() && can_pull_) {  // every changed vertex is owned: its scout is all of changed_'s
      sums = multi::push_step(push_board_, c_.d, g_, prog_, c_.values.data(), active_, changed_, claimed_);
      mine_.at(kScoutSlot) = cpu::degree_sum(changed_, g_.out_degree);
    } else {
      sums =
          multi::push_step(push_board_, c_.d, g_, prog_, c_.values.data(), active_, changed_, claimed_, remote_.get());
    }
    sums.count_into(mine_);
    if (c_.solo()) {
      solo_push_done();
      return;
    }
    clear_marks(active_, c_.marks);
    // The next frontier is changed_ and what merge adds: its bitmap is
    // built only if a pull step comes (clearing it every push step cost a
    // grid's thin steps more than the step).
    front_current_ = false;
    arrived_.count = 0;
    for (size_t i = 0; i < changed_.count; ++i) {
      const vid_t v = changed_.ids[i];
      if (!c_.owns(v)) continue;
      push_unique(active_, c_.marks, v);
      ++mine_.updated;
      mine_.at(kScoutSlot) += g_.out.degree(v);
    }
    mine_.active = active_.count;
    c_.end();
  }

  // Bottom-up: the owned vertices that joined form the next frontier
  // (remote ones arrive by merge). The active queue is only needed again
  // when the run goes back to push, so resume_push rebuilds it then.
  // Blocks of the step are on the device's worklist, for idle peers to
  // help with: they write into this device's values and `next_`.
  void pull(V level) {
    if constexpr (P::kPullable) {
      c_.begin(kCompute);
      make_front_current();
      next_.clear();
      const cpu::PullPending pending{pending_ids_.data(), pending_count_.data(), listed_};
      pull_board_.open(c_.d, {c_.values.data(), &front_, &next_, level, c_.lo, &g_.in, pending},
                       cpu::pull_blocks_begin(c_.lo), c_.hi, cpu::kPullBlock);
      listed_ = true;  // once every block is done (the board's wait), as the next step needs
      cpu::PullSums sums;
      pull_board_.run_team(c_.d, sums, [&](const cpu::PullTask<V>& t, vid_t lo, vid_t hi, cpu::PullSums& s) {
        cpu::pull_range(prog_, t, lo, hi, s);
      });
      mine_.edges = sums.edges;
      mine_.migrated += sums.migrated;
      if (c_.solo()) {  // nothing to send: the queue is rebuilt from the bitmap by resume_push
        front_.swap(next_);
        mine_.updated = mine_.active = sums.awake;
        c_.end();
        return;
      }
      clear_marks(active_, c_.marks);
      changed_.count = next_.collect(c_.lo, c_.hi, changed_.ids.mutable_data());
      front_.swap(next_);
      mine_.updated += changed_.count;
      mine_.active = changed_.count;
      c_.end();
    }
  }

  // The only device (nothing to exchange between levels) runs thin push
  // steps as waves, up to --cpu_wave vertices.
  uint64_t wave_items(const EngineOptions& opt) const { return c_.solo() ? opt.cpu_wave : 0; }

  // Push supersteps in one parallel region from the active queue, which
  // holds the last one's frontier at the end.
  void wave(const wave::Limits& limits) {
    c_.begin(kCompute);
    // A first-visit program claims nothing: its second bitmap is never read.
    if constexpr (!P::kPullable)
      if (wave_claims_.size() != g_.n) wave_claims_ = Bitmap(g_.n);
    Bitmap* claims[2] = {&claimed_, P::kPullable ? &claimed_ : &wave_claims_};
    const cpu::WaveRun r =
        cpu::push_wave(g_.out, g_.out_degree, prog_, c_.values.data(), active_, claims, limits, wave_lanes_);
    mine_.edges = r.edges;
    mine_.updated = r.updated;
    mine_.active = active_.count;
    mine_.supersteps = r.levels;
    mine_.at(kScoutSlot) = r.scout;
    changed_.count = 0;
    front_current_ = false;
    c_.end();
  }

  void compact(int) { c_.compact(changed_.ids.data(), changed_.count); }

  Agreed sync(int parity, bool pull) {
    c_.pull_ = pull;
    return Agreed{c_.sync(parity, mine_)};
  }

  void resume_push() {
    if (c_.solo()) {
      bitmap_to_queue(front_, active_);
      return;
    }
    for (vid_t v = c_.lo; v < c_.hi; ++v)
      if (front_.get(v)) push_unique(active_, c_.marks, v);
  }

 private:
  // The frontier as a bitmap, after push steps: the only device's is its
  // queue; else what the last push step changed and what merge added since.
  void make_front_current() {
    if (front_current_) return;
    front_current_ = true;
    if (c_.solo()) {
      queue_to_bitmap(active_, front_);
      return;
    }
    front_.clear();
    for (size_t i = 0; i < changed_.count; ++i) front_.set(changed_.ids[i]);
    for (size_t i = 0; i < arrived_.count; ++i) front_.set(arrived_.ids[i]);
  }

  // The only device: what changed is the next queue as it is (each vertex
  // listed once), and the frontier bitmap is built only if a pull step
  // comes.
  void solo_push_done() {
    std::swap(active_, changed_);
    changed_.count = 0;
    front_current_ = false;
    mine_.updated = mine_.active = active_.count;
    c_.end();
  }

  DeviceContext<V>& c_;
  const GraphChunk& g_;
  const P& prog_;
  const bool can_pull_;
  Queue active_, changed_;
  Queue arrived_;  // merged since the last push step, while front_ is not current
  Bitmap claimed_, front_, next_;
  Bitmap wave_claims_;                     // a wave's second (cpu::push_wave)
  std::vector<cpu::WaveLane> wave_lanes_;  // a wave's threads' queues
  PushBoard<V>& push_board_;
  PullBoard<V>& pull_board_;
  std::unique_ptr<RemotePush<P>> remote_;  // null: no help across ranks
  DeviceStatus mine_;
  bool front_current_ = true;  // front_ holds the frontier (else make_front_current builds it)
  // What later pull steps still try (cpu::PullPending); listed_ once a
  // pull step of this run has listed them.
  std::vector<vid_t> pending_ids_;
  std::vector<uint32_t> pending_count_;
  bool listed_ = false;
};

}  // namespace chatty::host
