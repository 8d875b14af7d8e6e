// The fabric of devices that are threads of one process. Each reservation
// starts on its own cache line and its words share lines: a worklist keeps
// its contended span apart from the fields a grab reads next, and those
// together, so a grab misses on two lines, not on one per word.

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "comm/fabric.h"
#include "runtime/base/spin_barrier.h"
#include "runtime/base/status.h"

namespace chatty {
namespace {

struct alignas(64) Line {
  static constexpr int kWords = 8;
  std::atomic<uint64_t> v[kWords] = {};
};

class ThreadFabric : public Fabric {
 public:
  // A status record is a few dozen bytes: a fixed bound keeps the boards
  // allocated once, before any device runs.
  static constexpr size_t kRecordBytes = 256;

  ThreadFabric(int devices, int per_rank) : devices_(devices), per_rank_(per_rank), rounds_(size_t(devices)) {
    for (auto& b : board_) b.assign(kRecordBytes * size_t(devices), std::byte{0});
  }

  int devices() const override { return devices_; }
  bool shares_memory(int a, int b) const override { return per_rank_ == 0 || a / per_rank_ == b / per_rank_; }

  // The devices are the threads of one parallel region (host_backend.h
  // runs them only when it has one thread per device).
  void barrier(int) override {
    if (devices_ > 1) barrier_.wait(devices_);
  }

  // Two boards by round parity: a device entering round r + 1 writes the
  // other board, and it cannot reach round r + 2 before every device has
  // finished reading round r (round r + 1's barrier waits for them).
  void all_gather(int d, const void* mine, size_t bytes, void* all) override {
    CHATTY_CHECK(bytes <= kRecordBytes, "status record too large for the fabric (internal error)");
    const size_t parity = rounds_[size_t(d)].n++ & 1;
    std::memcpy(board_[parity].data() + size_t(d) * bytes, mine, bytes);
    barrier(d);
    std::memcpy(all, board_[parity].data(), bytes * size_t(devices_));
  }

  int reserve_words(int count) override {
    const int first = words_per_device_;
    words_per_device_ += (count + Line::kWords - 1) / Line::kWords * Line::kWords;
    std::vector<Line> fresh(size_t(words_per_device_ / Line::kWords) * size_t(devices_));
    words_.swap(fresh);  // nothing runs yet: every word is still zero
    return first;
  }

  uint64_t load(int owner, int w) override { return at(owner, w).load(std::memory_order_acquire); }
  void store(int owner, int w, uint64_t value) override { at(owner, w).store(value, std::memory_order_release); }
  bool compare_exchange(int owner, int w, uint64_t& expected, uint64_t desired) override {
    return at(owner, w).compare_exchange_weak(expected, desired, std::memory_order_acq_rel, std::memory_order_relaxed);
  }
  uint64_t fetch_add(int owner, int w, uint64_t add) override {
    return at(owner, w).fetch_add(add, std::memory_order_acq_rel);
  }

 private:
  struct alignas(64) Round {
    uint64_t n = 0;
  };

  std::atomic<uint64_t>& at(int owner, int w) {
    const size_t i = size_t(owner) * size_t(words_per_device_) + size_t(w);
    return words_[i / Line::kWords].v[i % Line::kWords];
  }

  const int devices_, per_rank_;
  std::vector<Round> rounds_;
  std::vector<std::byte> board_[2];
  int words_per_device_ = 0;
  std::vector<Line> words_;
  SpinBarrier barrier_;
};

}  // namespace

std::unique_ptr<Fabric> make_thread_fabric(int devices, int devices_per_rank) {
  return std::make_unique<ThreadFabric>(devices, devices_per_rank);
}

}  // namespace chatty
