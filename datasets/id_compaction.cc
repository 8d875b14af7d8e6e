#include "datasets/id_compaction.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <parallel/algorithm>

namespace chatty {
namespace {

// Ids up to a few times the endpoint count: a flag per id, its rank by a
// prefix sum, and every endpoint mapped by one table read.
std::vector<uint64_t> rank_dense(std::vector<WideEdgeList>& wide, uint64_t max_id, std::vector<vid_t>& rank) {
  std::vector<uint8_t> seen(max_id + 1, 0);
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t l = 0; l < wide.size(); ++l)
    for (size_t i = 0; i < wide[l].size(); ++i) {
      std::atomic_ref<uint8_t>(seen[wide[l].src[i]]).store(1, std::memory_order_relaxed);
      std::atomic_ref<uint8_t>(seen[wide[l].dst[i]]).store(1, std::memory_order_relaxed);
    }
  rank.assign(max_id + 1, 0);
  std::vector<uint64_t> ids;
  for (uint64_t id = 0; id <= max_id; ++id)
    if (seen[id]) rank[id] = vid_t(ids.size()), ids.push_back(id);
  return ids;
}

// Any 64-bit ids: every endpoint sorted (in parallel), deduplicated.
std::vector<uint64_t> sorted_unique(const std::vector<WideEdgeList>& wide) {
  std::vector<size_t> at(wide.size() + 1, 0);
  for (size_t l = 0; l < wide.size(); ++l) at[l + 1] = at[l] + 2 * wide[l].size();
  std::vector<uint64_t> ids(at.back());
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t l = 0; l < wide.size(); ++l) {
    std::copy(wide[l].src.begin(), wide[l].src.end(), ids.begin() + long(at[l]));
    std::copy(wide[l].dst.begin(), wide[l].dst.end(), ids.begin() + long(at[l] + wide[l].size()));
  }
  __gnu_parallel::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  ids.shrink_to_fit();
  return ids;
}

}  // namespace

std::vector<uint64_t> compact_ids(std::vector<WideEdgeList>& wide, std::vector<EdgeList>& out) {
  uint64_t max_id = 0, endpoints = 0;
  for (const WideEdgeList& w : wide) {
    endpoints += 2 * w.size();
    for (size_t i = 0; i < w.size(); ++i) max_id = std::max({max_id, w.src[i], w.dst[i]});
  }
  std::vector<vid_t> rank;
  const bool dense = max_id < 4 * endpoints + (uint64_t(1) << 16);
  std::vector<uint64_t> ids = dense ? rank_dense(wide, max_id, rank) : sorted_unique(wide);
  out.assign(wide.size(), EdgeList{});
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t l = 0; l < wide.size(); ++l) {
    WideEdgeList& w = wide[l];
    EdgeList& e = out[l];
    e.src.resize(w.size());
    e.dst.resize(w.size());
    const auto index = [&](uint64_t id) {
      return dense ? rank[id] : vid_t(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
    };
    for (size_t i = 0; i < w.size(); ++i) e.src[i] = index(w.src[i]), e.dst[i] = index(w.dst[i]);
    e.weight = std::move(w.weight);
    w = WideEdgeList{};
  }
  wide.clear();
  return ids;
}

}  // namespace chatty
