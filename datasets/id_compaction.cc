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

// Open addressing over 64-bit ids (IdSet, IdIndex): all ones marks an empty
// slot, so that one id is kept beside the table.
constexpr uint64_t kEmpty = ~uint64_t(0);
size_t slot_of(uint64_t id, size_t mask) { return size_t((id * 0x9E3779B97F4A7C15ull) >> 20) & mask; }

// The distinct ids of a list: far fewer than its endpoints, so each thread
// collects its list's into a hash set first and only those are sorted.
class IdSet {
 public:
  void insert(uint64_t id) {
    if (id == kEmpty) {
      has_max_ = true;
      return;
    }
    if (2 * (size_ + 1) > keys_.size()) grow();
    size_t s = slot(id);
    while (keys_[s] != kEmpty && keys_[s] != id) s = (s + 1) & (keys_.size() - 1);
    if (keys_[s] == kEmpty) keys_[s] = id, ++size_;
  }
  void append_to(std::vector<uint64_t>& out) const {
    for (uint64_t k : keys_)
      if (k != kEmpty) out.push_back(k);
    if (has_max_) out.push_back(kEmpty);
  }

 private:
  size_t slot(uint64_t id) const { return slot_of(id, keys_.size() - 1); }
  void grow() {
    std::vector<uint64_t> old = std::move(keys_);
    keys_.assign(std::max<size_t>(1 << 12, 2 * old.size()), kEmpty);
    size_ = 0;
    for (uint64_t k : old)
      if (k != kEmpty) insert(k);
  }
  std::vector<uint64_t> keys_;
  size_t size_ = 0;
  bool has_max_ = false;
};

// Any 64-bit ids: each list's distinct ids (in parallel), sorted, merged.
std::vector<uint64_t> sorted_unique(const std::vector<WideEdgeList>& wide) {
  std::vector<std::vector<uint64_t>> distinct(wide.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t l = 0; l < wide.size(); ++l) {
    IdSet set;
    for (size_t i = 0; i < wide[l].size(); ++i) set.insert(wide[l].src[i]), set.insert(wide[l].dst[i]);
    set.append_to(distinct[l]);
  }
  std::vector<uint64_t> ids;
  for (const auto& d : distinct) ids.insert(ids.end(), d.begin(), d.end());
  __gnu_parallel::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  ids.shrink_to_fit();
  return ids;
}

// The rank of each id, by open addressing (a probe or two per endpoint,
// where a binary search over the ids takes ~20 dependent reads).
class IdIndex {
 public:
  explicit IdIndex(const std::vector<uint64_t>& ids) {
    size_t cap = 16;
    while (cap < 2 * ids.size()) cap <<= 1;
    mask_ = cap - 1;
    keys_.assign(cap, kEmpty);
    ranks_.assign(cap, 0);
    for (size_t r = 0; r < ids.size(); ++r) {
      if (ids[r] == kEmpty) {  // the one id the empty mark cannot hold
        max_rank_ = vid_t(r);
        continue;
      }
      size_t s = slot(ids[r]);
      while (keys_[s] != kEmpty) s = (s + 1) & mask_;
      keys_[s] = ids[r], ranks_[s] = vid_t(r);
    }
  }
  // `id` is one of the ids (every endpoint is).
  vid_t operator[](uint64_t id) const {
    if (id == kEmpty) return max_rank_;
    size_t s = slot(id);
    while (keys_[s] != id) s = (s + 1) & mask_;
    return ranks_[s];
  }

 private:
  size_t slot(uint64_t id) const { return slot_of(id, mask_); }
  size_t mask_ = 0;
  std::vector<uint64_t> keys_;
  std::vector<vid_t> ranks_;
  vid_t max_rank_ = 0;
};

}  // namespace

std::vector<uint64_t> compact_ids(std::vector<WideEdgeList>& wide, uint64_t max_id, std::vector<EdgeList>& out) {
  uint64_t endpoints = 0;
  for (const WideEdgeList& w : wide) endpoints += 2 * w.size();
  std::vector<vid_t> rank;
  const bool dense = max_id < 4 * endpoints + (uint64_t(1) << 16);
  std::vector<uint64_t> ids = dense ? rank_dense(wide, max_id, rank) : sorted_unique(wide);
  const IdIndex index_of = dense ? IdIndex({}) : IdIndex(ids);
  out.assign(wide.size(), EdgeList{});
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t l = 0; l < wide.size(); ++l) {
    WideEdgeList& w = wide[l];
    EdgeList& e = out[l];
    e.src.resize(w.size());
    e.dst.resize(w.size());
    const auto index = [&](uint64_t id) { return dense ? rank[id] : index_of[id]; };
    for (size_t i = 0; i < w.size(); ++i) e.src[i] = index(w.src[i]), e.dst[i] = index(w.dst[i]);
    e.weight = std::move(w.weight);
    w = WideEdgeList{};
  }
  wide.clear();
  return ids;
}

}  // namespace chatty
