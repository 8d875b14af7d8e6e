// A request, from outside a run, that it stop (the Python package's
// Ctrl-C). Superstep programs stop at their next superstep (every device
// fails its status together, as for an error); a team's operators stop
// taking rows, and loops over sources or vertices look between items
// (throw_if_interrupted). Either way the run throws
// chatty::Error("interrupted"): what it computed so far is not an answer.
#pragma once

#include <atomic>

#include "runtime/base/status.h"

namespace chatty {

inline std::atomic<bool>& interrupt_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}
inline void request_interrupt() { interrupt_flag().store(true, std::memory_order_relaxed); }
inline void clear_interrupt() { interrupt_flag().store(false, std::memory_order_relaxed); }
inline bool interrupt_requested() { return interrupt_flag().load(std::memory_order_relaxed); }
inline void throw_if_interrupted() {
  if (interrupt_requested()) throw Error("interrupted");
}

}  // namespace chatty
