// What rank 0 reports for a run over ranks: every rank's owned values
// and its devices' figures (phase times, records and transfers to each
// device), gathered once after the last superstep. Both engines (host
// and GPU devices) end a run over ranks with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "runtime/base/rank_place.h"
#include "runtime/engine/multi_stats.h"
#include "runtime/engine/ranks.h"
#include "runtime/graph/partition.h"

namespace chatty {

// A collective of every rank: rank 0's `values` get every rank's owned
// vertices (ranks own part's consecutive device chunks), and its `stats`
// every device's phase times, the steps' phase means over every device
// (each rank's steps hold its own devices' share), and rows of
// pair_records / pair_batches, and every rank's MPI operations of the run
// (rank_ops; the ranks reset their counts where the run began).
template <typename V>
void gather_rank_results(V* values, vid_t n, MultiStats& stats, const Partition& part, Ranks& ranks,
                         const ClusterPlace& place) {
  const int D = part.devices(), local = place.local;
  std::vector<uint64_t> by_rank(size_t(place.ranks) + 1);  // one item of each rank's
  for (int k = 0; k <= place.ranks; ++k) by_rank[size_t(k)] = uint64_t(k);
  // The run's operations, before the gathers below add their own.
  const std::vector<uint64_t> ops = ranks.ops();
  const size_t row = size_t(place.ranks) * kMpiOps;
  stats.rank_ops.assign(size_t(place.ranks) * row, 0);
  if (ops.size() == row) {
    std::copy(ops.begin(), ops.end(), stats.rank_ops.begin() + std::ptrdiff_t(size_t(place.rank) * row));
    ranks.gather(stats.rank_ops.data(), row * sizeof(uint64_t), by_rank.data());
  }
  std::vector<uint64_t> begin(size_t(place.ranks) + 1);
  for (int k = 0; k <= place.ranks; ++k) begin[size_t(k)] = k < place.ranks ? part.begin(k * local) : n;
  ranks.gather(values, sizeof(V), begin.data());
  stats.device_seconds.resize(size_t(D));
  for (int k = 0; k <= place.ranks; ++k) begin[size_t(k)] = uint64_t(k * local);
  ranks.gather(stats.device_seconds.data(), sizeof(stats.device_seconds[0]), begin.data());
  // Every rank ran the same supersteps; rank 0 adds the others' shares.
  const size_t S = stats.steps.size();
  std::vector<double> shares(size_t(place.ranks) * S * kPhases, 0.0);
  for (size_t i = 0; i < S; ++i)
    for (int p = 0; p < kPhases; ++p)
      shares[(size_t(place.rank) * S + i) * kPhases + size_t(p)] = stats.steps[i].seconds[p];
  if (S) ranks.gather(shares.data(), S * kPhases * sizeof(double), by_rank.data());
  if (place.rank == 0)
    for (int r = 1; r < place.ranks; ++r)
      for (size_t i = 0; i < S; ++i)
        for (int p = 0; p < kPhases; ++p)
          stats.steps[i].seconds[p] += shares[(size_t(r) * S + i) * kPhases + size_t(p)];
  stats.pair_records.resize(size_t(D) * size_t(D)), stats.pair_batches.resize(size_t(D) * size_t(D));
  ranks.gather(stats.pair_records.data(), sizeof(uint64_t) * size_t(D), begin.data());
  ranks.gather(stats.pair_batches.data(), sizeof(uint64_t) * size_t(D), begin.data());
}

}  // namespace chatty
