// The host devices an operator program (runtime/engine/operator_program.h)
// runs its share on: each team() runs the program's steps on one team of
// this process's devices (runtime/host/team.h), and their busy time and
// work add up to the run's record.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "runtime/engine/work_share.h"
#include "runtime/host/team.h"

namespace chatty::host {

class HostOperators {
 public:
  // `devices` devices of one process alone.
  explicit HostOperators(int devices) : HostOperators(WorkShare{0, 1, 0, devices, devices}) {}
  explicit HostOperators(const WorkShare& share) : share_(share), seconds_(size_t(std::max(1, share.local)), 0.0) {}

  const WorkShare& share() const { return share_; }
  int devices() const { return share_.local; }

  // Runs body(TeamThread&) on every thread of a team of this process's
  // devices (runtime/host/operators.h's steps are its collective calls).
  template <typename Body>
  void team(Body&& body) {
    const RowRun r = Team(share_.local).run(std::forward<Body>(body));
    for (size_t d = 0; d < seconds_.size() && d < r.device_seconds.size(); ++d) seconds_[d] += r.device_seconds[d];
    work_ += r.work;
  }

  // This process's devices' ranges of rows [0, n), from the ranges of
  // equal weight(v) sums over the run's devices (every rank's).
  template <typename W>
  DeviceRanges rows(vid_t n, W&& weight) const {
    const DeviceRanges all = balanced_ranges(n, share_.devices, std::forward<W>(weight));
    return DeviceRanges(all.begin() + share_.first, all.begin() + share_.first + share_.local + 1);
  }

  // What the run chose, for its record (e.g. how it shared its items).
  void note(std::string what) { note_ = std::move(what); }

  const std::vector<double>& device_seconds() const { return seconds_; }
  uint64_t work() const { return work_; }
  const std::string& noted() const { return note_; }

 private:
  WorkShare share_;
  std::vector<double> seconds_;
  uint64_t work_ = 0;
  std::string note_;
};

}  // namespace chatty::host
