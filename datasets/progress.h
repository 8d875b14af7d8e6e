// Progress line for long loads: printed to stderr only when it is a
// terminal and the work has taken more than a second, so scripts and
// short loads stay quiet.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace chatty {

class Progress {
 public:
  Progress(std::string what, uint64_t total);
  ~Progress();
  // Thread-safe; cheap enough to call every few hundred KB.
  void add(uint64_t amount);

 private:
  std::string what_;
  uint64_t total_;
  std::atomic<uint64_t> done_{0};
  std::atomic<int64_t> next_print_ms_{1000};
  std::atomic<bool> printed_{false};
  bool tty_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace chatty
