// One parallel region whose threads are divided among host devices: the
// room the host operators (runtime/host/operators.h) run in. An app's
// driver runs on every thread of the team (SPMD) and calls operators as
// collective steps: each ends with a barrier, after which every thread
// sees the same frontier, reduction or counts. One region for a whole
// algorithm, not one per step: a grid's BFS has thousands of levels, and
// starting a team per level would cost more than the levels' work.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "runtime/base/interrupt.h"
#include "runtime/base/operators.h"
#include "runtime/base/spin_barrier.h"
#include "runtime/base/types.h"

namespace chatty::host {

// Half-open ranges of vertex ids (or of any items), one per device.
using DeviceRanges = std::vector<vid_t>;  // devices + 1 bounds

// What a team's run did: each device's busy seconds, and the work its
// steps reported (list entries read).
struct RowRun {
  std::vector<double> device_seconds;
  uint64_t work = 0;
};

// Devices' ranges over [0, n) with about equal sums of weight(v) (edges,
// or the work a row costs).
template <typename W>
DeviceRanges balanced_ranges(vid_t n, int devices, W&& weight) {
  if (devices <= 1) return {0, n};
  double total = 0;
  for (vid_t v = 0; v < n; ++v) total += double(weight(v));
  DeviceRanges r{0};
  double sum = 0;
  for (vid_t v = 0; v < n && int(r.size()) < devices; ++v) {
    sum += double(weight(v));
    if (sum >= total * double(r.size()) / double(devices)) r.push_back(v + 1);
  }
  while (int(r.size()) <= devices) r.push_back(n);
  r.back() = n;
  return r;
}

class Team;

// One thread's handle on its team: which device it works for, and the
// collective steps the operators are built from. Every thread of the team
// must make the same sequence of collective calls.
class TeamThread {
 public:
  int thread() const { return t_; }
  bool lead() const { return t_ == 0; }

  // A collective step begins: the lead readies the next step's counters
  // and shared words. Every operator calls it first.
  inline void begin_step();
  // Every thread waits for the others: the step's writes are seen by all.
  inline void barrier() const;
  // The lead runs f while the others wait; all see what it wrote.
  template <typename F>
  void single(F&& f) {
    begin_step();
    if (lead()) f();
    barrier();
  }

  // Items [lo, hi) split into the devices' equal slices (or each device's
  // range of `ranges`, one per device of the team), each device's threads
  // taking chunks of `grain` of its slice: f(device, i) for every item,
  // returning its work. No barrier: the operator adds its own after what
  // its threads buffered is out.
  template <typename F>
  void share(size_t lo, size_t hi, F&& f, size_t grain = 64);
  template <typename F>
  void share(const DeviceRanges& ranges, F&& f, size_t grain = 64);

  // Two words shared by the team for this step (zero at its start), read
  // after the step's barrier: counts of what the step appended.
  inline std::atomic<uint64_t>& word(int i);

  // This thread's partial result of this step, and every thread's after the
  // barrier, for reductions of values up to 16 bytes.
  template <typename T>
  requires ops::Value<T>
  void put_partial(const T& v);
  template <typename T>
  T partial_of(int thread) const;
  int threads() const { return threads_; }
  // The device this thread works for first (its only one where the team
  // has no more devices than threads).
  int device() const { return devices_ <= threads_ ? t_ % devices_ : t_; }
  // Adds `seconds` of busy time on device() and `work` to the team's run,
  // for a step that takes its items other than by share().
  void account(double seconds, uint64_t work) {
    busy_[size_t(device())] += seconds;
    work_ += work;
  }

  // Collective: whether the run was asked to stop (runtime/base/interrupt.h),
  // the same answer on every thread, so that all leave a loop together.
  inline bool interrupted();

 private:
  friend class Team;
  TeamThread(Team& team, int t, int threads, int devices);
  template <typename F>
  void run_slice(int device, size_t first, size_t end, F& f, size_t grain);

  Team& team_;
  int t_, threads_, devices_;
  uint64_t step_ = 0;
  std::vector<double> busy_;  // per device
  uint64_t work_ = 0;
};

class Team {
 public:
  explicit Team(int devices) : devices_(std::max(1, devices)) {}
  int devices() const { return devices_; }

  // Runs body(TeamThread&) on every thread of one parallel region, and
  // returns each device's busy seconds and the work reported. Once an
  // interrupt is requested the threads take no more items and the run
  // throws chatty::Error("interrupted") when the region ends.
  template <typename Body>
  RowRun run(Body&& body) {
    RowRun out;
    out.device_seconds.assign(size_t(devices_), 0.0);
    const int threads = omp_get_max_threads();
    next_.reset(new Cursor[2 * size_t(devices_)]);
    partial_.assign(2 * size_t(threads), {});
    for (auto& s : words_)
      for (auto& w : s) w.store(0);
    const RunStopCarrier run;
#pragma omp parallel num_threads(threads)
    {
      const RunStop carried = run.carry();
      TeamThread me(*this, omp_get_thread_num(), omp_get_num_threads(), devices_);
      body(me);
#pragma omp critical(chatty_team_stats)
      {
        out.work += me.work_;
        for (int d = 0; d < devices_; ++d)
          out.device_seconds[size_t(d)] = std::max(out.device_seconds[size_t(d)], me.busy_[size_t(d)]);
      }
    }
    throw_if_interrupted();
    return out;
  }

 private:
  friend class TeamThread;
  struct alignas(64) Partial {
    std::array<unsigned char, 16> bytes{};
  };
  // A cursor per cache line: devices' threads take chunks side by side.
  struct alignas(64) Cursor {
    std::atomic<size_t> at{0};
  };
  int devices_;
  // Each device's chunk cursor for steps of even and odd number: a step
  // uses its parity's, and the lead zeroes the other parity's for the next
  // step (the step that used them last ended at a barrier).
  std::unique_ptr<Cursor[]> next_;
  // Shared words by step number mod 3: a slow thread may still read the
  // last step's while the lead zeroes the next one's.
  std::array<std::array<std::atomic<uint64_t>, 2>, 3> words_{};
  std::vector<Partial> partial_;  // [step parity][thread]
  SpinBarrier barrier_;
};

inline TeamThread::TeamThread(Team& team, int t, int threads, int devices)
    : team_(team), t_(t), threads_(threads), devices_(devices), busy_(size_t(devices), 0.0) {}

inline void TeamThread::begin_step() {
  ++step_;
  if (!lead()) return;
  Team::Cursor* later = team_.next_.get() + size_t((step_ + 1) % 2) * size_t(devices_);
  for (int k = 0; k < devices_; ++k) later[k].at.store(0, std::memory_order_relaxed);
  for (auto& w : team_.words_[(step_ + 1) % 3]) w.store(0, std::memory_order_relaxed);
}

inline void TeamThread::barrier() const { team_.barrier_.wait(threads_); }

inline std::atomic<uint64_t>& TeamThread::word(int i) { return team_.words_[step_ % 3][size_t(i)]; }

inline bool TeamThread::interrupted() {
  begin_step();
  if (lead()) word(0).store(interrupt_requested() ? 1 : 0, std::memory_order_relaxed);
  barrier();
  return word(0).load(std::memory_order_relaxed) != 0;
}

template <typename T>
requires ops::Value<T>
void TeamThread::put_partial(const T& v) {
  std::memcpy(team_.partial_[size_t(step_ % 2) * size_t(threads_) + size_t(t_)].bytes.data(), &v, sizeof(T));
}

template <typename T>
T TeamThread::partial_of(int thread) const {
  T v;
  std::memcpy(&v, team_.partial_[size_t(step_ % 2) * size_t(threads_) + size_t(thread)].bytes.data(), sizeof(T));
  return v;
}

template <typename F>
void TeamThread::run_slice(int device, size_t first, size_t end, F& f, size_t grain) {
  // A slice of one chunk (a grid's levels: thousands, each a few
  // vertices) goes to the device's first thread without the cursor, whose
  // line would otherwise travel between the device's threads every level.
  const bool one_chunk = end - first <= grain;
  if (one_chunk && devices_ <= threads_ && t_ != device) return;
  std::atomic<size_t>& next = team_.next_[size_t(step_ % 2) * size_t(devices_) + size_t(device)].at;
  const double t0 = omp_get_wtime();
  uint64_t w = 0;
  if (one_chunk)
    for (size_t j = first; j < end; ++j) w += f(device, j);
  else
    for (size_t i = first + next.fetch_add(grain, std::memory_order_relaxed); i < end && !interrupt_requested();
         i = first + next.fetch_add(grain, std::memory_order_relaxed))
      for (size_t j = i; j < std::min(i + grain, end); ++j) w += f(device, j);
  work_ += w;
  busy_[size_t(device)] += omp_get_wtime() - t0;
}

// With no more devices than threads each thread serves one device (a
// device's threads share its chunks); with more, each thread serves every
// threads-th device in turn.
template <typename F>
void TeamThread::share(size_t lo, size_t hi, F&& f, size_t grain) {
  for (int k = devices_ <= threads_ ? t_ % devices_ : t_; k < devices_; k += devices_ <= threads_ ? devices_ : threads_)
    run_slice(k, lo + (hi - lo) * size_t(k) / size_t(devices_), lo + (hi - lo) * size_t(k + 1) / size_t(devices_), f,
              grain);
}

template <typename F>
void TeamThread::share(const DeviceRanges& ranges, F&& f, size_t grain) {
  assert(ranges.size() == size_t(devices_) + 1 && "a range per device of the team");
  for (int k = devices_ <= threads_ ? t_ % devices_ : t_; k < devices_; k += devices_ <= threads_ ? devices_ : threads_)
    run_slice(k, ranges[size_t(k)], ranges[size_t(k) + 1], f, grain);
}

}  // namespace chatty::host
