#include "datasets/progress.h"

#include <unistd.h>

#include <cstdio>

namespace chatty {

Progress::Progress(std::string what, uint64_t total)
    : what_(std::move(what)),
      total_(total),
      tty_(isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  if (printed_) std::fprintf(stderr, "\r%s: done%30s\n", what_.c_str(), "");
}

void Progress::add(uint64_t amount) {
  uint64_t done = done_.fetch_add(amount, std::memory_order_relaxed) + amount;
  if (!tty_) return;
  int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_).count();
  int64_t due = next_print_ms_.load(std::memory_order_relaxed);
  if (ms < due || !next_print_ms_.compare_exchange_strong(due, ms + 250)) return;
  printed_ = true;
  double pct = total_ ? 100.0 * double(done) / double(total_) : 0.0;
  std::fprintf(stderr, "\r%s: %5.1f%% (%.0f MB, %.1f s)", what_.c_str(), pct, double(done) / 1e6, double(ms) / 1e3);
  std::fflush(stderr);
}

}  // namespace chatty
