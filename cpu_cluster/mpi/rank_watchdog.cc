#include "cpu_cluster/mpi/rank_watchdog.h"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "cpu_cluster/cluster.h"
#include "cpu_cluster/mpi/mpi_util.h"
#include "cpu_cluster/mpi/window_ops.h"
#include "runtime/base/status.h"

namespace chatty::mpi {
namespace {

using Clock = std::chrono::steady_clock;

// Words of each rank's window: its beat, its phase, its superstep.
constexpr int kBeat = 0, kPhase = 1, kStep = 2, kWords = 3;

class Watchdog {
 public:
  explicit Watchdog(double timeout_s) : timeout_(timeout_s) {
    MPI_Comm_rank(mpi::ranks_comm(), &rank_);
    MPI_Comm_size(mpi::ranks_comm(), &ranks_);
    last_phase_.reset(new std::atomic<uint64_t>[size_t(ranks_)]());
    last_step_.reset(new std::atomic<uint64_t>[size_t(ranks_)]());
    allocate_window(kWords * sizeof(uint64_t), sizeof(uint64_t), &base_, &win_);
    prepare_window(win_, "the rank watchdog");
    if (const WindowOps ops(win_); ops.direct())
      for (int r = 0; r < ranks_; ++r) mapped_.push_back(reinterpret_cast<uint64_t*>(ops.at(r, 0)));
    for (int w = 0; w < kWords; ++w) word(w).store(0);
    word(kPhase).store(uint64_t(RankPhase::kLoading));
    MPI_Barrier(mpi::ranks_comm());
    check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_), "MPI_Win_lock_all");
    // A thread that cannot start (a rank short of memory) is this rank's
    // error, with the other thread stopped first: a joinable thread
    // destroyed by the unwinding would terminate the process.
    try {
      thread_ = std::thread([this] { watch(); });
      deadman_ = std::thread([this] { watch_reads(); });
    } catch (const std::system_error& e) {
      stop_threads();
      throw Error(std::string("the rank watchdog cannot start its threads: ") + e.what());
    }
  }
  ~Watchdog() {
    finish();
    stop_threads();
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
  }

  void note(RankPhase phase, uint64_t step) {
    word(kStep).store(step, std::memory_order_relaxed);
    word(kPhase).store(uint64_t(phase), std::memory_order_release);
  }

  void taken_back(int rank) {
    const Late late{rank, word(kStep).load(std::memory_order_relaxed), Clock::now()};
    std::lock_guard<std::mutex> lock(m_);
    late_.push_back(late);
  }

 private:
  // Freeing the window is a collective: a rank that stopped answering
  // after its last collective (rank 0 writing the results) would hold the
  // others there for good. So each rank says it is done and waits, the
  // watch still on, until every rank has: a silent one is named instead.
  void finish() {
    if (cluster_fault_stop_at_finish(rank_)) std::raise(SIGSTOP);
    note(RankPhase::kDone, word(kStep).load(std::memory_order_relaxed));
    for (int r = 0; r < ranks_; ++r)
      while (phase_of(r) != uint64_t(RankPhase::kDone)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  uint64_t phase_of(int r) {
    uint64_t v = 0;
    fetch(r, kPhase, 1, &v);
    return v;
  }

  // Words [first, first + count) of rank r's window: read in place where
  // the window is shared (whatever state the rank is in), else by MPI calls.
  void fetch(int r, int first, int count, uint64_t* out) {
    if (!mapped_.empty()) {
      for (int w = 0; w < count; ++w)
        out[w] = std::atomic_ref<uint64_t>(mapped_[size_t(r)][first + w]).load(std::memory_order_acquire);
      return;
    }
    MPI_Get(out, count, MPI_UINT64_T, r, first, count, MPI_UINT64_T, win_);
    MPI_Win_flush(r, win_);
  }

  void stop_threads() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    {
      std::lock_guard<std::mutex> lock(reads_m_);
      stop_reads_ = true;
    }
    cv_.notify_all();
    reads_cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    if (deadman_.joinable()) deadman_.join();
  }

  std::atomic_ref<uint64_t> word(int w) { return std::atomic_ref<uint64_t>(base_[w]); }

  // Where rank r was when its words were last read, for the line naming it.
  std::string last_where(int r) const {
    switch (RankPhase(last_phase_[r].load(std::memory_order_relaxed))) {
      case RankPhase::kRunning: return "superstep " + std::to_string(last_step_[r].load(std::memory_order_relaxed));
      case RankPhase::kShare: return "its share of the work";
      case RankPhase::kResults: return "the time after its run (gathering, validating or writing results)";
      case RankPhase::kDone: return "finishing";
      default: return "loading";
    }
  }

  std::vector<uint64_t> read(int r) {
    std::vector<uint64_t> v(kWords);
    reading_.store(r, std::memory_order_relaxed);
    read_since_.store(Clock::now().time_since_epoch().count(), std::memory_order_release);
    fetch(r, 0, kWords, v.data());
    read_since_.store(0, std::memory_order_release);
    last_phase_[r].store(v[kPhase], std::memory_order_relaxed);
    last_step_[r].store(v[kStep], std::memory_order_relaxed);
    return v;
  }

  // Where a read by MPI calls of a stopped rank's window waits for that rank (MPICH's
  // flush over UCX, which also holds the library's lock, so that no other
  // MPI call of this process returns), the watch above never wakes: a
  // second thread times the reads. A live rank answers within about a
  // second (its own watchdog drives its progress), so a read that has not
  // returned for the deadline names its rank; the lowest rank speaks
  // first. MPI_Abort would wait for the same lock, so the process exits
  // and the launcher ends the others. It waits on a lock of its own (the
  // watch holds m_ through its reads) and is woken to stop: a plain sleep
  // held every rank's exit for the rest of its 100 ms.
  void watch_reads() {
    const double deadline = timeout_ + 2.0 * rank_;
    std::unique_lock<std::mutex> lock(reads_m_);
    while (!reads_cv_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_reads_; })) {
      const Clock::rep since = read_since_.load(std::memory_order_acquire);
      if (!since) continue;
      const double waited =
          std::chrono::duration<double>(Clock::now() - Clock::time_point(Clock::duration(since))).count();
      if (waited < deadline) continue;
      const int r = reading_.load(std::memory_order_relaxed);
      std::fprintf(stderr,
                   "chatty: error: rank %d stopped answering: a read of its window has not returned for %.0f s, last "
                   "in %s (--rank_timeout=%g; seen by rank %d)\n",
                   r, waited, last_where(r).c_str(), timeout_, rank_);
      let_lines_out();
      std::_Exit(1);
    }
  }

  void watch() {
    std::vector<uint64_t> beat(size_t(ranks_), ~uint64_t(0));
    std::vector<Clock::time_point> moved(size_t(ranks_), Clock::now());
    std::unique_lock<std::mutex> lock(m_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; })) {
      word(kBeat).fetch_add(1, std::memory_order_relaxed);
      if (++ticks_ % 4) continue;  // the others once a second
      const Clock::time_point now = Clock::now();
      std::vector<std::vector<uint64_t>> seen{size_t(ranks_)};
      for (int r = 0; r < ranks_; ++r) {
        if (r == rank_) continue;
        seen[size_t(r)] = read(r);
        if (seen[size_t(r)][kBeat] != beat[size_t(r)]) beat[size_t(r)] = seen[size_t(r)][kBeat], moved[size_t(r)] = now;
      }
      check_late(seen, now);
      auto silent_for = [&](int r) { return std::chrono::duration<double>(now - moved[size_t(r)]).count(); };
      // The lowest live rank speaks; the others only if it does not.
      bool lower_alive = false;
      for (int r = 0; r < rank_; ++r) lower_alive = lower_alive || silent_for(r) < timeout_;
      const double deadline = timeout_ + (lower_alive ? 3 : 0);
      int first = -1;
      for (int r = 0; r < ranks_ && first < 0; ++r)
        if (r != rank_ && silent_for(r) >= deadline) first = r;
      if (first < 0) continue;
      // Ranks that stopped together (a node, a switch) are named together,
      // though the last of them may have missed the deadline by a read.
      std::vector<int> silent;
      for (int r = 0; r < ranks_; ++r)
        if (r != rank_ && (r == first || silent_for(r) >= std::min(deadline, std::max(1.5, timeout_ / 2))))
          silent.push_back(r);
      std::string each;  // "rank 1 for 3 s, last in superstep 5; of rank 2 ..."
      for (int r : silent) {
        char b[64];
        std::snprintf(b, sizeof b, "rank %d for %.0f s, last in ", r, silent_for(r));
        each += (each.empty() ? "" : "; of ") + std::string(b) + last_where(r);
      }
      if (silent.size() == 1)
        std::fprintf(stderr,
                     "chatty: error: rank %d stopped answering: no sign of it for %.0f s, last in %s "
                     "(--rank_timeout=%g; seen by rank %d)\n",
                     first, silent_for(first), last_where(first).c_str(), timeout_, rank_);
      else
        std::fprintf(stderr,
                     "chatty: error: %s stopped answering: no sign of %s (--rank_timeout=%g; seen by rank %d)\n",
                     ranks_named(silent).c_str(), each.c_str(), timeout_, rank_);
      cluster_abort(1);
    }
  }

  // A rank whose device lost a claim to its owner here at `at`, when the
  // two had agreed on `step` supersteps' status: it is computing the next.
  struct Late {
    int rank;
    uint64_t step;
    Clock::time_point at;
  };

  // Ends the job if a rank told of has not left its superstep (or ended
  // its run) in time; forgets those that have.
  void check_late(const std::vector<std::vector<uint64_t>>& seen, Clock::time_point now) {
    for (size_t i = 0; i < late_.size();) {
      const Late& l = late_[i];
      const std::vector<uint64_t>& words = seen[size_t(l.rank)];
      const RankPhase phase = RankPhase(words[kPhase]);
      if (words[kStep] > l.step || phase == RankPhase::kResults || phase == RankPhase::kDone) {
        late_.erase(late_.begin() + ptrdiff_t(i));
        continue;
      }
      const double waited = std::chrono::duration<double>(now - l.at).count();
      if (waited > timeout_) {
        std::fprintf(stderr,
                     "chatty: error: rank %d stalled in superstep %llu: blocks its device claimed from rank %d were "
                     "taken back %.0f s ago and it has not moved on since: a stalled thief (--rank_timeout=%g)\n",
                     l.rank, static_cast<unsigned long long>(l.step + 1), rank_, waited, timeout_);
        cluster_abort(1);
      }
      ++i;
    }
  }

  double timeout_;
  int rank_ = 0, ranks_ = 1;
  std::vector<Late> late_;  // guarded by m_
  std::thread deadman_;
  std::mutex reads_m_;  // the deadman's
  std::condition_variable reads_cv_;
  bool stop_reads_ = false;  // guarded by reads_m_
  std::atomic<int> reading_{0};
  std::atomic<Clock::rep> read_since_{0};                            // when the read under way began (0: none)
  std::unique_ptr<std::atomic<uint64_t>[]> last_phase_, last_step_;  // per rank, as last read
  uint64_t* base_ = nullptr;
  MPI_Win win_ = MPI_WIN_NULL;
  std::vector<uint64_t*> mapped_;  // every rank's words, where the window is shared
  std::thread thread_;
  std::mutex m_;
  std::condition_variable cv_;
  bool stop_ = false;
  uint64_t ticks_ = 0;
};

Watchdog* g_watchdog = nullptr;

}  // namespace

void start_rank_watchdog(double timeout_s) {
  int ranks = 1;
  MPI_Comm_size(mpi::ranks_comm(), &ranks);
  if (timeout_s <= 0 || ranks < 2 || g_watchdog) return;
  g_watchdog = new Watchdog(timeout_s);
}

void stop_rank_watchdog() {
  delete g_watchdog;
  g_watchdog = nullptr;
}

void note_rank_phase(RankPhase phase, uint64_t superstep) {
  if (g_watchdog) g_watchdog->note(phase, superstep);
}

void note_taken_back(int rank) {
  if (g_watchdog) g_watchdog->taken_back(rank);
}

}  // namespace chatty::mpi
