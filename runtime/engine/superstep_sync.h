// The end of every superstep, the same for every backend and device count:
// a device's final status is agreed through the fabric; unless some device
// failed, the records it sends go to its peers through the transport the
// policy chooses for the superstep's total bytes; the devices meet again
// where that transport writes into its peers' slots; the step is recorded.
// Backends differ only before this: how a device's status becomes final
// (host devices count it on the driving thread; a GPU's publish kernel
// writes it to mapped memory).
#pragma once

#include <omp.h>

#include <exception>
#include <string>
#include <vector>

#include "comm/fabric.h"
#include "comm/transport.h"
#include "runtime/base/interrupt.h"
#include "runtime/engine/multi_stats.h"

namespace chatty {

// Where a device's time went in the superstep being timed, phase by phase.
struct PhaseClock {
  Phase phase = kMerge;
  double t0 = 0;
  double seconds[kPhases] = {0, 0, 0, 0, 0};
  size_t step = 0;  // index of the superstep being timed
  void begin(Phase p) {
    phase = p;
    t0 = omp_get_wtime();
  }
  void end() { seconds[phase] += omp_get_wtime() - t0; }
};

// One per run, shared by its devices.
class SuperstepSync {
 public:
  SuperstepSync(Fabric& fabric, Mailboxes& mb, TransportPolicy& policy, MultiStats& stats)
      : fabric_(fabric),
        mb_(mb),
        policy_(policy),
        stats_(stats),
        broken_(size_t(fabric.devices()), 0),
        agreed_(size_t(fabric.devices())) {}

  int devices() const { return fabric_.devices(); }
  Mailboxes& mailboxes() { return mb_; }

  // Device d's sync for `parity`: `mine` counts the records it sends for
  // parity ^ 1 (sent, delivered, offers) and is failed if the device hit an
  // error. Returns every device's status, the same on every device (d's
  // own buffer, reused: valid until d's next sync); unless
  // one failed, the records for parity ^ 1 are then in every receive slot.
  // An exchange that throws is recorded (error()) and fails this device's
  // next status, so every device stops at the next sync instead of waiting.
  const std::vector<DeviceStatus>& run(int d, int parity, DeviceStatus mine, PhaseClock& clk, bool pull) {
    const int out = parity ^ 1;
    if (broken_[size_t(d)]) mine.failed = 1;
    if (interrupt_requested()) {
      fail("interrupted");
      mine.failed = 1;
    }
    std::vector<DeviceStatus>& all = agreed_[size_t(d)];
    if (all.empty()) all.resize(size_t(devices()));  // on first use: only this rank's devices sync here
    if (devices() == 1) {  // the run's only device: nothing to agree on or send, no clock to read
      all[0] = mine;
      if (mine.failed)
        stopped_ = 1;
      else
        record(d, all, clk, pull, -1, nullptr);
      return all;
    }
    clk.begin(kWait);
    fabric_.all_gather(d, &mine, sizeof mine, all.data());
    clk.end();
    for (const DeviceStatus& s : all)
      if (s.failed) {
        stopped_ = 1;
        return all;
      }
    clk.begin(kExchange);
    uint64_t delivered = 0;
    for (const DeviceStatus& s : all) delivered += s.delivered;
    bool meet = false;
    const Transport* used = nullptr;
    if (delivered == 0) {
      empty_own_slots(d, out);  // nobody sent: nobody writes a peer's slot, so no meeting
    } else {
      Transport& t = policy_.choose(DataClass::kApplication, delivered * mb_.item_bytes());
      meet = !t.receiver_driven();
      used = &t;
      try {
        t.exchange(mb_, d, out);
      } catch (const std::exception& e) {
        fail(e.what());
        broken_[size_t(d)] = 1;
        // Peers must not merge slots this device was to fill: its peers'
        // slots from it (a sender-driven transport, which meets below) or
        // its own (a receiver-driven one, which no one else writes).
        if (!meet) {
          empty_own_slots(d, out);
        } else {
          for (int r = 0; r < devices(); ++r)
            if (r != d) mb_.recv(out, r, d).count = 0;
        }
      }
    }
    clk.end();
    if (meet) {
      clk.begin(kWait);
      fabric_.barrier(d);
      clk.end();
    }
    record(d, all, clk, pull, delivered > 0 && !broken_[size_t(d)] ? out : -1, used);
    return all;
  }

  // Device d's say in a vote of every device of the run (every rank's):
  // whether all say `mine`. Every device calls it.
  bool all(int d, bool mine) {
    const char me = mine;
    std::vector<char> every(static_cast<size_t>(devices()));
    fabric_.all_gather(d, &me, 1, every.data());
    for (char e : every)
      if (!e) return false;
    return true;
  }

  // Records the first error any device hit, and, where one was caught,
  // the exception itself (a caller may rethrow it as it was: an
  // allocation's failure stays std::bad_alloc).
  void fail(const std::string& what, std::exception_ptr caught = nullptr) {
#pragma omp critical(chatty_sync_error)
    if (error_.empty()) error_ = what, caught_ = caught;
  }
  // Device d cannot go on (out of memory in its compaction): its next
  // status is failed, so every device stops at that sync.
  void fail_device(int d, const std::string& what, std::exception_ptr caught = nullptr) {
    fail(what, caught);
    broken_[size_t(d)] = 1;
  }
  // The first error, once the devices are done; empty if none.
  const std::string& error() const { return error_; }
  // The first error's exception, if it was one caught; else null.
  std::exception_ptr caught() const { return caught_; }
  // Whether some device (perhaps of another rank) failed and all stopped.
  bool stopped() const { return stopped_ != 0; }

 private:
  void empty_own_slots(int d, int parity) {
    for (int p = 0; p < devices(); ++p)
      if (p != d) mb_.recv(parity, d, p).count = 0;
  }

  // Device 0 adds the superstep's totals; phase times are averaged. Each
  // device adds what it delivered to each peer for `parity` (-1: nothing)
  // and in how many transfers `used` sent it.
  void record(int d, const std::vector<DeviceStatus>& all, PhaseClock& clk, bool pull, int parity,
              const Transport* used) {
#pragma omp critical(chatty_multi_stats)
    {
      record_step(stats_, clk.step, d, clk.seconds, all, mb_.item_bytes());
      if (d == 0) stats_.steps[clk.step].pull = pull;
      for (int p = 0; p < devices() && parity >= 0; ++p) {
        const size_t count = p == d ? 0 : mb_.outgoing(d, parity, p).count;
        stats_.pair_records[size_t(d * devices() + p)] += count;
        stats_.pair_batches[size_t(d * devices() + p)] += p == d ? 0 : used->batches(d, p, count);
      }
    }
    for (double& t : clk.seconds) t = 0;
    ++clk.step;
  }

  Fabric& fabric_;
  Mailboxes& mb_;
  TransportPolicy& policy_;
  MultiStats& stats_;
  std::vector<char> broken_;                       // per device: its exchange threw
  std::vector<std::vector<DeviceStatus>> agreed_;  // per local device, what its last sync agreed (others: empty)
  std::string error_;
  std::exception_ptr caught_;
  char stopped_ = 0;  // written alike by every device that sees a failed status
};

}  // namespace chatty
