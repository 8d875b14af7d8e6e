// What a multi-device run did, per superstep: how many vertices changed and
// how many boundary vertices were communicated (the ChattyGraph paper's figure 11), bytes
// per data class, and where the time went.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/base/status_data.h"

namespace chatty {

enum Phase { kMerge, kCompute, kCompact, kExchange, kWait, kPhases };
inline const char* phase_name(int p) {
  static const char* names[] = {"merge", "compute", "compact", "exchange", "wait"};
  return names[p];
}

struct MultiStep {
  uint64_t updated = 0;       // owned vertices whose value changed (all devices)
  uint64_t communicated = 0;  // (vertex, value) records sent (all devices)
  uint64_t edges = 0;         // edges examined (all devices)
  uint64_t migrated = 0;      // vertices computed by a device other than their owner
  uint64_t app_bytes = 0;     // application data delivered to peers
  uint64_t offer_bytes = 0;   // of it, push offers for peers' vertices (host devices)
  uint64_t status_bytes = 0;  // status data read by peers
  uint64_t supersteps = 1;    // supersteps this sync covers (--gpu_steps_per_sync)
  bool pull = false;
  double seconds[kPhases] = {0, 0, 0, 0, 0};  // mean over devices
};

struct MultiStats {
  int devices = 1;
  std::string transport;
  std::string exchange = "broadcast";  // how records find their peers: broadcast or per-peer
  std::string messages = "sendall";    // a value once per reading device, or per_edge (exchange_policy.h)
  std::string gather;                  // a lone CPU device's summing gather: rows or tiles (--cpu_gather); else empty
  uint64_t structure_bytes = 0;        // edge structure of the largest chunk a device holds (its CSR/CSC)
  std::vector<MultiStep> steps;
  // Seconds in each phase over the run, per device: the steps' means hide
  // imbalance, which shows here as one device waiting for a slower one.
  std::vector<std::array<double, kPhases>> device_seconds;
  // Per device: vertices it computed for peers (work migration), every
  // device's, from the statuses every device sees.
  std::vector<uint64_t> device_migrated;
  // Per device: of those, the worklist blocks it claimed from devices of
  // other ranks (work migration across ranks).
  std::vector<uint64_t> device_migrated_blocks;
  // Per (sender, receiver) device pair, row-major: records (messages)
  // delivered, and batches: supersteps in which the pair carried any, each
  // one transfer of all of that superstep's records.
  // Ranks: the MPI operations each rank issued to each in the run,
  // [(origin * ranks + target) * kMpiOps + op] (runtime/base/rank_place.h's MpiOp).
  std::vector<uint64_t> rank_ops;
  std::vector<uint64_t> pair_records, pair_batches;
  uint64_t item_bytes = 0;  // of one record
  // Not part of the run's time: GPU devices creating themselves and
  // uploading chunks; ranks exposing their gathers to each other.
  double setup_seconds = 0;
  // Ranks: gathering every rank's results to rank 0 after the run (not
  // the run, as GPU devices' copy back of their results is not).
  double collect_seconds = 0;
  double run_seconds = 0;  // GPU devices: from all devices up to all programs done
  // Gather programs: whether the change fell below the tolerance before
  // max_iters, and the last superstep's change.
  bool converged = true;
  double last_change = 0;
  // Supersteps run: one per sync, or several where a lone GPU device ran
  // them between syncs.
  uint64_t supersteps() const { return total(&MultiStep::supersteps); }
  uint64_t updated() const { return total(&MultiStep::updated); }
  uint64_t edges() const { return total(&MultiStep::edges); }
  uint64_t migrated() const { return total(&MultiStep::migrated); }
  uint64_t communicated() const { return total(&MultiStep::communicated); }
  // One of the steps' counts, summed over the run.
  uint64_t total(uint64_t MultiStep::*count) const {
    uint64_t s = 0;
    for (const MultiStep& x : steps) s += x.*count;
    return s;
  }
  uint64_t bytes(int cls) const {  // 0 application, 1 status, 2 push offers (part of 0)
    uint64_t s = 0;
    for (auto& x : steps) s += cls == 0 ? x.app_bytes : cls == 1 ? x.status_bytes : x.offer_bytes;
    return s;
  }
  double seconds(int phase) const {
    double s = 0;
    for (auto& x : steps) s += x.seconds[phase];
    return s;
  }
};

// Adds device d's phase times for superstep `step` and, on device 0, the
// superstep's totals from every device's status (records of item_bytes
// each). Callers hold the stats lock.
inline void record_step(MultiStats& stats, size_t step, int d, const double (&seconds)[kPhases],
                        const std::vector<DeviceStatus>& all, uint64_t item_bytes) {
  const uint64_t P = all.size();
  if (step >= stats.steps.size()) stats.steps.resize(step + 1);
  if (size_t(d) >= stats.device_seconds.size()) stats.device_seconds.resize(P);
  stats.item_bytes = item_bytes;
  if (stats.pair_records.size() != P * P) stats.pair_records.assign(P * P, 0), stats.pair_batches.assign(P * P, 0);
  MultiStep& m = stats.steps[step];
  for (int p = 0; p < kPhases; ++p) {
    m.seconds[p] += seconds[p] / double(P);
    stats.device_seconds[size_t(d)][size_t(p)] += seconds[p];
  }
  if (d != 0) return;
  stats.device_migrated.resize(P);
  stats.device_migrated_blocks.resize(P);
  for (size_t p = 0; p < P; ++p) {
    stats.device_migrated[p] += all[p].migrated;
    stats.device_migrated_blocks[p] += all[p].migrated_blocks;
  }
  m.supersteps = all.empty() ? 1 : all[0].supersteps;
  for (auto& s : all) {
    m.updated += s.updated;
    m.communicated += s.sent;
    m.edges += s.edges;
    m.migrated += s.migrated;
    m.app_bytes += s.delivered * item_bytes;
    m.offer_bytes += s.offers * item_bytes;
  }
  m.status_bytes = P * (P - 1) * sizeof(DeviceStatus);
}

// One superstep's record of an operator run that exchanged nothing (every
// device reads what it needs in place or holds a copy): edges examined,
// each device's compute time, and how the devices reached their data.
inline void record_operator_run(MultiStats& ms, const std::vector<double>& device_seconds, uint64_t edges,
                                const std::string& transport) {
  ms.devices = int(device_seconds.size());
  ms.transport = transport;
  ms.exchange = "none";
  MultiStep step;
  step.edges = edges;
  double mean = 0;
  ms.device_seconds.assign(device_seconds.size(), {0, 0, 0, 0, 0});
  for (size_t d = 0; d < device_seconds.size(); ++d) {
    ms.device_seconds[d][kCompute] = device_seconds[d];
    mean += device_seconds[d];
  }
  step.seconds[kCompute] = mean / double(device_seconds.size());
  ms.steps.push_back(step);
}

}  // namespace chatty
