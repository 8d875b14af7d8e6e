// A request, from outside a run, that it stop at its next superstep (the
// Python package's Ctrl-C): every device then fails its status together,
// as for an error, and the run throws chatty::Error("interrupted").
#pragma once

#include <atomic>

namespace chatty {

inline std::atomic<bool>& interrupt_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}
inline void request_interrupt() { interrupt_flag().store(true, std::memory_order_relaxed); }
inline void clear_interrupt() { interrupt_flag().store(false, std::memory_order_relaxed); }
inline bool interrupt_requested() { return interrupt_flag().load(std::memory_order_relaxed); }

}  // namespace chatty
