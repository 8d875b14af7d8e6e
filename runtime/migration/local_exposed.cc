// Exposed memory of devices in one process: every region is plain memory
// and a peer's get or put is a copy, so the migration protocol across
// ranks runs in unit tests, under the sanitizers, without mpirun.
#include <cstring>

#include "runtime/migration/exposed_memory.h"

namespace chatty {
namespace {

class ItemList : public ExposedMemory::Pattern {
 public:
  ItemList(const uint32_t* items, size_t count, size_t item_bytes) : items_(items, items + count), bytes_(item_bytes) {}
  size_t count() const override { return items_.size(); }
  const std::vector<uint32_t>& items() const { return items_; }
  size_t item_bytes() const { return bytes_; }

 private:
  std::vector<uint32_t> items_;
  size_t bytes_;
};

class LocalMemory : public ExposedMemory {
 public:
  LocalMemory(const std::vector<size_t>& bytes, bool mapped) : mapped_(mapped) {
    for (size_t b : bytes) regions_.emplace_back(b);
  }
  std::byte* local(int d) override { return regions_[size_t(d)].data(); }
  const std::byte* read_in_place(int owner) override { return mapped_ ? local(owner) : nullptr; }
  void get(int owner, size_t offset, void* into, size_t bytes) override {
    std::memcpy(into, local(owner) + offset, bytes);
  }
  std::unique_ptr<Pattern> pattern(const uint32_t* items, size_t count, size_t item_bytes) override {
    return std::make_unique<ItemList>(items, count, item_bytes);
  }
  void get(int owner, size_t offset, const Pattern& p, void* into) override {
    const auto& list = static_cast<const ItemList&>(p);
    const size_t b = list.item_bytes();
    auto* out = static_cast<std::byte*>(into);
    for (size_t i = 0; i < list.items().size(); ++i)
      std::memcpy(out + i * b, local(owner) + offset + size_t(list.items()[i]) * b, b);
  }
  void put(int owner, size_t offset, const void* from, size_t bytes) override {
    std::memcpy(local(owner) + offset, from, bytes);
  }
  void complete(int) override {}
  void sync() override {}

 private:
  std::vector<std::vector<std::byte>> regions_;
  bool mapped_;
};

}  // namespace

std::unique_ptr<ExposedMemory> make_local_exposed(const std::vector<size_t>& bytes, bool mapped) {
  return std::make_unique<LocalMemory>(bytes, mapped);
}

}  // namespace chatty
