// A request, from outside a run, that it stop (the Python package's
// Ctrl-C). Superstep programs stop at their next superstep (every device
// fails its status together, as for an error); a team's operators stop
// taking rows, and loops over sources or vertices look between items
// (throw_if_interrupted). Either way the run throws
// chatty::Error("interrupted"): what it computed so far is not an answer.
//
// A request is for one run: the caller gives the run a stop flag of its own
// (RunStop on the thread that drives the run), and every thread the run
// starts carries it (RunStopCarrier), so that a request stops that run and
// no other run of the process. request_interrupt() stops every run.
#pragma once

#include <atomic>

#include "runtime/base/status.h"

namespace chatty {

inline std::atomic<bool>& interrupt_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}
// The stop flag of the run this thread works for (null: none of its own).
inline thread_local const std::atomic<bool>* t_run_stop = nullptr;

inline void request_interrupt() { interrupt_flag().store(true, std::memory_order_relaxed); }
inline void clear_interrupt() { interrupt_flag().store(false, std::memory_order_relaxed); }
inline bool interrupt_requested() {
  return interrupt_flag().load(std::memory_order_relaxed) ||
         (t_run_stop && t_run_stop->load(std::memory_order_relaxed));
}
inline void throw_if_interrupted() {
  if (interrupt_requested()) throw Error("interrupted");
}

// On the thread that drives a run: `stop` is that run's flag while this
// object lives.
class RunStop {
 public:
  explicit RunStop(const std::atomic<bool>* stop) : saved_(t_run_stop) { t_run_stop = stop; }
  ~RunStop() { t_run_stop = saved_; }
  RunStop(const RunStop&) = delete;
  RunStop& operator=(const RunStop&) = delete;

 private:
  const std::atomic<bool>* saved_;
};

// The run's flag, taken where a run starts threads (made before them) and
// given to each (carry() at the top of every thread's body).
class RunStopCarrier {
 public:
  RunStopCarrier() : stop_(t_run_stop) {}
  RunStop carry() const { return RunStop(stop_); }

 private:
  const std::atomic<bool>* stop_;
};

}  // namespace chatty
