// What a device fetched from peers on other ranks to compute their
// migrated blocks (the block's rows of in-edges), kept across supersteps
// within a byte budget: a gather's blocks are the same every superstep,
// so a thief that helps the same busy peer again reads only values. When
// an entry does not fit, the entries used least often go first (RGraph's
// migration cache evicts by frequency), the older of equals first: a block
// stolen every superstep stays, one stolen once makes room.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>

namespace chatty {

template <typename Entry>
class MigrationCache {
 public:
  explicit MigrationCache(size_t capacity_bytes) : capacity_(capacity_bytes) {}

  // The entry under `key`, counting a use; null when absent.
  Entry* find(uint64_t key) {
    auto it = items_.find(key);
    if (it == items_.end()) {
      ++misses_;
      return nullptr;
    }
    ++hits_;
    Item& item = it->second;
    order_.erase({item.uses, item.stamp});
    ++item.uses;
    item.stamp = ++clock_;
    order_.emplace(std::make_pair(item.uses, item.stamp), key);
    return &item.entry;
  }

  // Keeps `entry` (of `bytes`) under `key`, which must be absent, evicting
  // the least used entries until it fits. An entry larger than the whole
  // budget is kept alone until the next insert, so the caller may use it.
  Entry& insert(uint64_t key, Entry entry, size_t bytes) {
    while (!items_.empty() && used_ + bytes > capacity_) evict();
    used_ += bytes;
    const uint64_t stamp = ++clock_;
    auto [it, fresh] = items_.emplace(key, Item{std::move(entry), bytes, 1, stamp});
    order_.emplace(std::make_pair(uint64_t(1), stamp), key);
    return it->second.entry;
  }

  size_t bytes() const { return used_; }
  size_t size() const { return items_.size(); }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  uint64_t evictions() const { return evictions_; }

 private:
  struct Item {
    Entry entry;
    size_t bytes;
    uint64_t uses, stamp;
  };
  void evict() {
    auto first = order_.begin();
    auto it = items_.find(first->second);
    used_ -= it->second.bytes;
    items_.erase(it);
    order_.erase(first);
    ++evictions_;
  }

  const size_t capacity_;
  size_t used_ = 0;
  uint64_t clock_ = 0, hits_ = 0, misses_ = 0, evictions_ = 0;
  std::unordered_map<uint64_t, Item> items_;
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> order_;  // (uses, stamp) -> key, least used first
};

}  // namespace chatty
