// Work migration between host devices (RGraph, section 5.2). A
// superstep ends at a barrier, so a device slowed by anything - a busier
// chunk, or on a shared machine a core taken by another tenant - holds every
// other device idle. Each device therefore splits its owned work into
// blocks on a worklist: its own threads grab blocks from the front (work
// grabbing), and a device that has run out of blocks takes blocks from the
// back of a peer's worklist and computes them against that peer's data, as
// RGraph's migrating node reads a busy node's worklist counters and takes
// migrate_block tasks at a time. What a migrated block gathers is summed
// into the helper's own status (L1 change, dangling mass, edges); what it
// writes lands in the owner's arrays, which the owner reads only after every
// block it published is done.
//
// Host devices share memory, so a peer's arrays are read in place; on GPUs
// the same protocol would need peer access, and the GPU superstep does not
// use it.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <type_traits>
#include <vector>

#include "comm/fabric.h"
#include "runtime/base/engine_options.h"
#include "runtime/base/types.h"
#include "runtime/engine/ranks.h"

namespace chatty {

// One device's blocks for one phase of a superstep, kept in six shared
// words of the owner on the fabric (comm/fabric.h): the span, which every
// grab contends for, in a reservation of its own, and the four fields a
// grab reads after winning in another. A peer claims blocks
// by atomics on the owner's words, as RGraph's migrating node does with
// RDMA FETCH_AND_ADD. The front and back counters share a word, so a grab
// from either end is one compare-and-swap and the two ends can never hand
// out the same block. The owner opens the next phase only after every
// block of the last one is done, so a peer that wins a block reads the
// phase's fields (and task) after its grab, and they stay put until it
// finishes the block: a peer never needs to know which phase the owner is
// in.
class Worklist {
 public:
  // The worklist of device `owner`: its span is word `span`, the other
  // fields words [fields, fields + kFields).
  static constexpr int kFields = 6;
  Worklist(Fabric& f, int owner, int span, int fields) : f_(f), owner_(owner), span_(span), w_(fields) {}

  // Owner, once the last phase's blocks are all done: blocks of `block`
  // vertices over [lo, hi). Everything the owner wrote before this call
  // (the task its peers will read) is visible to a peer that wins a block.
  // Peers take blocks only while more than `keep` are left, peers on
  // other ranks while more than `remote_keep` are (RGraph's
  // migrate_threshold): the owner finishes the last few itself.
  void open(vid_t lo, vid_t hi, vid_t block, uint32_t keep = 0, uint32_t remote_keep = 0) {
    const uint32_t blocks = uint32_t((uint64_t(hi - lo) + block - 1) / block);
    f_.store(owner_, w_ + kPhase, ++phase_);
    f_.store(owner_, w_ + kKeep, uint64_t(remote_keep) << 32 | keep);
    f_.store(owner_, w_ + kRange, uint64_t(lo) << 32 | hi);
    f_.store(owner_, w_ + kShape, uint64_t(block) << 32 | blocks);
    f_.store(owner_, w_ + kDone, 0);
    f_.store(owner_, span_, blocks);  // last: a grab that sees it sees the rest
  }

  // The owner's threads: the next blocks from the front, a `spread`-th of
  // those left and at least one (guided: each grab is a round trip on the
  // words, which on a rank's fabric is an MPI atomic even to itself, while
  // the last blocks still go one at a time to whoever is free); returns
  // how many, 0 for none.
  uint32_t grab_front(vid_t& lo, vid_t& hi, uint32_t spread) { return grab(true, false, spread, 0, lo, hi); }

  // A peer: up to `take` blocks from the back (consecutive: one range),
  // while more than the owner keeps from such a peer (`remote`: on another
  // rank), and more than `left`, are left; returns how many, 0 for none.
  // The threshold is read before the grab, so it may be the last phase's:
  // it only decides whether to try.
  uint32_t grab_back(vid_t& lo, vid_t& hi, uint32_t take = 1, bool remote = false, uint32_t left = 0) {
    return grab(false, remote, take, left, lo, hi);
  }

  // Whoever computed `blocks` blocks: publishes its writes to the owner.
  void finish(uint32_t blocks = 1) { f_.fetch_add(owner_, w_ + kDone, blocks); }

  // A peer that won blocks: the phase they belong to (the owner opens no
  // other until they are done). The owner: the phase it opened last.
  uint64_t phase() { return f_.load(owner_, w_ + kPhase); }
  uint64_t opened() const { return phase_; }
  // How many of this phase's blocks [lo, hi) covers.
  uint32_t blocks_in(vid_t lo, vid_t hi) {
    const uint64_t block = f_.load(owner_, w_ + kShape) >> 32;
    return uint32_t((uint64_t(hi - lo) + block - 1) / block);
  }

  // A peer on another rank that claimed blocks: names itself (device + 1),
  // for the line that an owner prints when its blocks never finish.
  void claimed_by(int thief) { f_.store(owner_, w_ + kThief, uint64_t(thief) + 1); }

  // Owner, after its threads ran out of blocks: waits for the blocks peers
  // took (they are short, so spinning is brief; yielding keeps an
  // oversubscribed machine - more devices than cores - moving). With
  // `deadline_s` > 0, blocks not done within it are late: a thief on
  // another rank that stalls after its claim (its rank alive, so the
  // watchdog sees nothing) would leave the owner waiting forever. The
  // owner calls take_back() once (RGraph's ownership rule: it computes
  // what it can reclaim itself), and blocks still not done a deadline
  // later end the job.
  template <typename TakeBack>
  void wait_done(double deadline_s, Ranks& ranks, TakeBack take_back) {
    const uint64_t blocks = uint32_t(f_.load(owner_, w_ + kShape));
    double until = 0;
    bool took = false;
    for (int spins = 0; f_.load(owner_, w_ + kDone) < blocks; ++spins) {
      if (spins > 64) std::this_thread::yield();
      if (deadline_s > 0 && spins % 256 == 0) {
        const double now = omp_get_wtime();
        if (until == 0) until = now + deadline_s;
        if (now <= until) continue;
        if (took) stalled(2 * deadline_s, ranks);
        take_back();
        took = true;
        until = now + deadline_s;
      }
    }
  }

 private:
  enum : int { kDone, kKeep, kRange, kShape, kThief, kPhase };  // the span: front << 32 | back, in blocks

  uint32_t grab(bool front, bool remote, uint32_t take, uint32_t left, vid_t& lo, vid_t& hi) {
    uint64_t s = f_.load(owner_, span_);
    for (;;) {
      const uint32_t f = uint32_t(s >> 32), b = uint32_t(s);
      if (f >= b) return 0;
      uint32_t n = 1;
      if (front) {
        n = std::max<uint32_t>(1, (b - f) / std::max<uint32_t>(take, 1));
      } else {
        const uint64_t keeps = f_.load(owner_, w_ + kKeep);
        const uint32_t keep = std::max(left, remote ? uint32_t(keeps >> 32) : uint32_t(keeps));
        if (b - f <= keep) return 0;
        n = std::min(take, b - f - keep);
      }
      const uint32_t taken = front ? f : b - n;
      const uint64_t next = front ? s + (uint64_t(n) << 32) : s - n;
      if (f_.compare_exchange(owner_, span_, s, next)) {
        const uint64_t range = f_.load(owner_, w_ + kRange);
        const uint64_t block = f_.load(owner_, w_ + kShape) >> 32;
        lo = vid_t(range >> 32) + vid_t(uint64_t(taken) * block);
        hi = vid_t(std::min<uint64_t>(uint64_t(lo) + uint64_t(n) * block, uint32_t(range)));
        return n;
      }
    }
  }

  [[noreturn]] void stalled(double deadline_s, Ranks& ranks) const {
    const ClusterPlace place = ranks.place(1);
    const int thief = int(f_.load(owner_, w_ + kThief)) - 1;
    std::fprintf(stderr,
                 "chatty: error: rank %d: blocks of device %d claimed by device %d (rank %d) did not finish within "
                 "%g s: a stalled thief (--rank_timeout)\n",
                 place.rank, owner_, thief, ranks.is_cluster() && thief >= 0 ? place.rank_of(thief) : -1, deadline_s);
    ranks.abort(1);
  }

  Fabric& f_;
  const int owner_;
  const int span_, w_;
  uint64_t phase_ = 0;  // phases opened (the owner's copy is the one that counts)
};

// How peers on other ranks take blocks, the same for every board of a run:
// `take` blocks a claim (RGraph's migrate_block), while the owner has more
// than `keep` left (its migrate_threshold: a remote block costs a round
// trip, so the owner keeps more of its last blocks from them than from its
// local peers).
struct RemoteClaims {
  uint32_t take = 4, keep = 8;
  // How long an owner waits for blocks claimed from another rank before it
  // takes them back (0: for ever).
  double stall_s = 0;
  Ranks* ranks = nullptr;  // the run's ranks (null: one process)
};

// Every device's worklist and the task a peer needs to compute its blocks
// (pointers to the owner's arrays), shared by the devices of one run.
// Peers on other ranks cannot follow those pointers: a family that lets
// them help passes run() a `remote` computation, which fetches what a
// block needs through exposed memory (runtime/migration/exposed_memory.h):
//   void operator()(int owner, vid_t lo, vid_t hi, Acc& acc);  // computes them
//   void commit(int owner);                                      // writes back what it computed
//   uint32_t keep(int owner, uint32_t take) const;              // blocks owner must have left for a claim
//   bool try_now(int owner);                                     // whether to try owner in this phase
//   void tried(int owner, bool claimed);                         // what the try gave
// A claim from another rank is held in three words of the thief's (RGraph's
// ownership rule): the owner, late for it, may take it back and compute it
// itself, and the thief writes back and reports its blocks done only if
// it settles the claim first. Its sums are dropped otherwise; what it
// wrote into its own replica meanwhile (a push's relaxations) is left, as
// a relaxation done twice changes nothing.
template <typename Task>
class MigrationBoard {
 public:
  using Remote = RemoteClaims;

  // Reserves the worklists' words on the fabric: before the devices start.
  MigrationBoard(Fabric& f, bool enabled, Remote remote = {}, Straggler slow = {})
      : fabric_(f),
        enabled_(enabled),
        remote_(remote),
        slow_(slow),
        held_(f.reserve_words(kHeldWords)),
        claims_(size_t(f.devices()), 0) {
    const int span = f.reserve_words(1), fields = f.reserve_words(Worklist::kFields);
    slots_.reserve(size_t(f.devices()));
    for (int d = 0; d < f.devices(); ++d) slots_.emplace_back(f, d, span, fields);
  }

  bool enabled() const { return enabled_; }
  Ranks& ranks() const { return remote_.ranks ? *remote_.ranks : one_process(); }
  // Whether a phase of `blocks` blocks whose owner keeps `keep` of them
  // from its local peers leaves any for peers on other ranks.
  bool claimable(uint32_t blocks, uint32_t keep) const { return enabled_ && blocks > std::max(keep, remote_.keep); }
  int devices() const { return int(slots_.size()); }

  // Owner d publishes its task and opens its blocks of [lo, hi); the last
  // phase's blocks must all be done (wait_done). Its last `keep` blocks
  // stay its own; from peers on other ranks too unless `local_only`, which
  // leaves them the run's migrate_threshold alone.
  void open(int d, const Task& task, vid_t lo, vid_t hi, vid_t block, uint32_t keep = 0, bool local_only = false) {
    Slot& s = slots_[size_t(d)];
    s.task = task;
    if (lone()) {  // no peer reads the words: the team splits the blocks as an OpenMP loop would
      s.lo = lo, s.hi = hi, s.block = block;
      return;
    }
    s.list.open(lo, hi, block, keep, local_only ? remote_.keep : std::max(keep, remote_.keep));
    std::atomic_ref<uint64_t>(s.opened).fetch_add(1, std::memory_order_release);
  }

  // Every device opens or passes every phase of a board (the devices run
  // their steps in lockstep), so a peer whose own blocks end first waits
  // for an owner that has not opened the phase yet (still merging or
  // building its frontier), up to kOpenWait, instead of leaving for the
  // barrier where it would wait anyway (RGraph's idle node keeps watching
  // the busy one's worklist). pass(d): device d runs this phase's blocks
  // without the board; its peers find the phase open and empty.
  void pass(int d) {
    if (lone()) return;
    Slot& s = slots_[size_t(d)];
    s.list.open(0, 0, 1, 0, 0);
    std::atomic_ref<uint64_t>(s.opened).fetch_add(1, std::memory_order_release);
  }

  // No computation for peers on other ranks: they do not help.
  struct NoRemote {
    template <typename Acc>
    void operator()(int, vid_t, vid_t, Acc&) {}
    uint32_t keep(int, uint32_t) const { return 0; }
  };

  // Runs work(task, lo, hi, acc) on the calling thread over device d's
  // blocks, then (if enabled) over blocks taken from its peers in this
  // process, in ring order from d + 1, with the task of whatever phase
  // each peer is in; then, given `remote` and when `remote_thread`, over
  // blocks of peers on other ranks: (*remote)(peer, lo, hi, acc).
  // acc.migrated counts the vertices computed for peers, and
  // acc.remote_blocks the blocks taken from other ranks. Every thread of
  // device d's team calls this; the owner then calls wait_done before it
  // reads what its blocks wrote.
  template <typename Acc, typename Work, typename RemoteWork = NoRemote>
  void run(int d, Acc& acc, Work work, RemoteWork* remote = nullptr, bool remote_thread = true) {
    Slot& own = slots_[size_t(d)];
    if (lone()) {
      if (omp_get_num_threads() == 1) {  // alone: one call over every block, no scheduler in between
        if (own.lo < own.hi) work(own.task, own.lo, own.hi, acc);
        return;
      }
      // An orphaned loop: it binds to the calling team.
      const int64_t blocks = (int64_t(own.hi) - int64_t(own.lo) + own.block - 1) / own.block;
#pragma omp for schedule(dynamic, 1) nowait
      for (int64_t b = 0; b < blocks; ++b)
        work(own.task, own.lo + vid_t(b) * own.block, std::min<vid_t>(own.hi, own.lo + vid_t(b + 1) * own.block), acc);
      return;
    }
    vid_t lo, hi;
    const bool slowed = slow_.slows(d);
    const uint32_t spread = kSpread * uint32_t(omp_get_num_threads());
    while (const uint32_t blocks = own.list.grab_front(lo, hi, spread)) {
      if (slowed) std::this_thread::sleep_for(std::chrono::microseconds(uint64_t(slow_.pause_us) * blocks));
      work(own.task, lo, hi, acc);
      own.list.finish(blocks);
    }
    if (!enabled_) return;
    const int P = devices();
    const uint64_t phase = std::atomic_ref<uint64_t>(own.opened).load(std::memory_order_acquire);
    for (int i = 1; i < P; ++i) {
      const int p = (d + i) % P;
      if (!fabric_.shares_memory(d, p)) continue;
      Slot& peer = slots_[size_t(p)];
      const double until = omp_get_wtime() + kOpenWait;
      while (std::atomic_ref<uint64_t>(peer.opened).load(std::memory_order_acquire) < phase && omp_get_wtime() < until)
        std::this_thread::yield();
      while (peer.list.grab_back(lo, hi)) {
        work(peer.task, lo, hi, acc);  // read after the grab: the phase's task
        acc.migrated += hi - lo;
        peer.list.finish();
      }
    }
    if constexpr (!std::is_same_v<RemoteWork, NoRemote>) {
      if (!remote || !remote_thread) return;
      for (int i = 1; i < P; ++i) {
        const int p = (d + i) % P;
        if (fabric_.shares_memory(d, p)) continue;
        if (!remote->try_now(p)) continue;
        Slot& peer = slots_[size_t(p)];
        await_open(peer.list, phase);
        bool claimed = false;
        while (const uint32_t blocks =
                   peer.list.grab_back(lo, hi, remote_.take, /*remote=*/true, remote->keep(p, remote_.take))) {
          peer.list.claimed_by(d);
          const uint64_t mark = hold(d, p, peer.list.phase(), lo, hi);
          if (const double stall = ranks().fault_thief_stall_s(); stall > 0) {  // fault injection, for tests
            std::fprintf(stderr, "chatty: fault injection: device %d stalls %g s after claiming blocks of device %d\n",
                         d, stall, p);
            std::this_thread::sleep_for(std::chrono::duration<double>(stall));
          }
          Acc mine{};
          (*remote)(p, lo, hi, mine);
          if (settle(d, mark)) {
            remote->commit(p);
            mine.migrated += hi - lo;
            mine.remote_blocks += blocks;
            acc += mine;
            peer.list.finish(blocks);
          }
          claimed = true;
        }
        remote->tried(p, claimed);
      }
    }
  }

  // Owner d, after run(): waits for the blocks its peers took. A claim
  // from another rank not done within the run's stall_s is taken back and
  // computed here by work(task, lo, hi, acc), as run() computes its own.
  template <typename Acc, typename Work>
  void wait_done(int d, Acc& acc, Work work) {
    // alone, the team's loop ends when its blocks do
    if (!lone()) slots_[size_t(d)].list.wait_done(remote_.stall_s, ranks(), [&] { take_back(d, acc, work); });
  }
  // The same where no peer on another rank claims (nothing to take back).
  void wait_done(int d) {
    if (!lone()) slots_[size_t(d)].list.wait_done(remote_.stall_s, ranks(), [] {});
  }

  // run() on every thread of device d's team, their sums added into acc
  // (Acc has +=), then wait_done(d). One thread of the team helps peers on
  // other ranks: `remote` need not be thread-safe.
  template <typename Acc, typename Work, typename RemoteWork = NoRemote>
  void run_team(int d, Acc& acc, Work work, RemoteWork* remote = nullptr) {
    if (omp_get_max_threads() == 1) {
      run(d, acc, work, remote);
    } else {
#pragma omp parallel
      {
        Acc mine;
        run(d, mine, work, remote, omp_get_thread_num() == 0);
#pragma omp critical(chatty_migration_sums)
        acc += mine;
      }
    }
    wait_done(d, acc, work);
  }

 private:
  // An owner's thread takes at most a kSpread-th of its team's share of
  // the blocks left: peers still find most of a slow owner's blocks.
  static constexpr uint32_t kSpread = 8;
  // The longest a peer waits for an owner to open a phase (seconds): a
  // frontier's build is short, and a board whose devices did not all
  // open a phase must not hold its peers for long.
  static constexpr double kOpenWait = 2e-3;
  // The longest a thief waits for an owner on another rank to open a
  // phase (seconds): that owner publishes its frontier first, and its rank
  // may be off its core meanwhile, a scheduler's slice of a few
  // milliseconds on a loaded machine, which is when migration pays most.
  static constexpr double kRemoteOpenWait = 25e-3;
  // Thief: waits while owner `peer` is still in the phase before `phase`
  // (each look a round trip on its phase word). The owner opens or passes
  // every phase, so this ends when the owner reaches the phase, as the
  // thief would otherwise wait for it at the superstep's end; and once the
  // owner opens any phase, so devices whose phases ever fell out of step
  // would lose no more than that.
  static void await_open(Worklist& peer, uint64_t phase) {
    const uint64_t seen = peer.phase();
    if (seen >= phase) return;
    const double until = omp_get_wtime() + kRemoteOpenWait;
    while (peer.phase() == seen && omp_get_wtime() < until) std::this_thread::yield();
  }
  // The run's only device: its blocks need no words on the fabric.
  bool lone() const { return slots_.size() == 1; }

  // A thief's claim, in three words of its own: kWhose = phase << 20 |
  // owner, kRange = lo << 32 | hi, and kMark = claim << 2 | state, where
  // `claim` counts the thief's claims (so a mark is never seen twice) and
  // state is kHeld, then kSettled (the thief keeps the claim) or kTaken
  // (the owner does).
  enum : int { kWhose, kRange, kMark, kHeldWords };
  enum : uint64_t { kHeld = 1, kSettled = 2, kTaken = 3 };
  static uint64_t whose(int owner, uint64_t phase) { return phase << 20 | uint64_t(owner); }

  // Thief d: holds owner's blocks [lo, hi) of `phase`; returns the mark.
  uint64_t hold(int d, int owner, uint64_t phase, vid_t lo, vid_t hi) {
    fabric_.store(d, held_ + kWhose, whose(owner, phase));
    fabric_.store(d, held_ + kRange, uint64_t(lo) << 32 | hi);
    const uint64_t mark = ++claims_[size_t(d)] << 2 | kHeld;
    fabric_.store(d, held_ + kMark, mark);  // last: an owner that sees it sees the rest
    return mark;
  }
  // Thief d: whether its claim is still its own to write back.
  bool settle(int d, uint64_t mark) {
    uint64_t expected = mark;
    return fabric_.compare_exchange(d, held_ + kMark, expected, mark - kHeld + kSettled);
  }

  // Owner d, late: computes every block of this phase that a device on
  // another rank holds unsettled, and reports it done.
  template <typename Acc, typename Work>
  void take_back(int d, Acc& acc, Work& work) {
    Slot& own = slots_[size_t(d)];
    const uint64_t mine = whose(d, own.list.opened());
    for (int t = 0; t < devices(); ++t) {
      if (fabric_.shares_memory(d, t)) continue;
      uint64_t mark = fabric_.load(t, held_ + kMark);
      if ((mark & 3) != kHeld || fabric_.load(t, held_ + kWhose) != mine) continue;
      const uint64_t range = fabric_.load(t, held_ + kRange);
      // Won only if the mark did not move since it was read: the words
      // read in between were this claim's, as a mark is never reused.
      if (!fabric_.compare_exchange(t, held_ + kMark, mark, mark - kHeld + kTaken)) continue;  // it settled
      const vid_t lo = vid_t(range >> 32), hi = vid_t(range);
      work(own.task, lo, hi, acc);
      own.list.finish(own.list.blocks_in(lo, hi));
      const ClusterPlace place = ranks().place(1);
      const int rank = ranks().is_cluster() ? place.rank_of(t) : t;
      std::fprintf(stderr,
                   "chatty: warning: rank %d: blocks of device %d claimed by device %d (rank %d) not done within %g "
                   "s: taken back by their owner (--rank_timeout)\n",
                   place.rank, d, t, rank, remote_.stall_s);
      ranks().taken_back(rank);
    }
  }

  struct alignas(64) Slot {
    Slot(Fabric& f, int d, int span, int fields) : list(f, d, span, fields) {}
    Worklist list;
    Task task{};
    vid_t lo = 0, hi = 0, block = 1;  // a lone device's blocks
    uint64_t opened = 0;              // phases its owner opened (atomic_ref: read by its peers)
  };
  std::vector<Slot> slots_;
  Fabric& fabric_;
  bool enabled_;
  Remote remote_;
  Straggler slow_;
  const int held_;                // each device's claim from another rank: words [held_, held_ + kHeldWords)
  std::vector<uint64_t> claims_;  // per device: its claims from other ranks so far (its helping thread's alone)
};

}  // namespace chatty
