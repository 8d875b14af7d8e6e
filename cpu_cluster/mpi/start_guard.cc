#include "cpu_cluster/mpi/start_guard.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace chatty::mpi {
namespace {

class StartGuard {
 public:
  void arm(double timeout_s, int rank) {
    std::lock_guard<std::mutex> lock(m_);
    if (thread_.joinable() || timeout_s <= 0) return;
    thread_ = std::thread([this, timeout_s, rank] { watch(timeout_s, rank); });
  }

  void disarm() {
    {
      std::lock_guard<std::mutex> lock(m_);
      met_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  }

  ~StartGuard() { disarm(); }  // an exit before the ranks met (a refusal all of them hold)

 private:
  void watch(double timeout_s, int rank) {
    const double wait = timeout_s + (rank > 0 ? 2.0 : 0.0);
    std::unique_lock<std::mutex> lock(m_);
    if (cv_.wait_for(lock, std::chrono::duration<double>(wait), [this] { return met_; })) return;
    std::fprintf(stderr,
                 "chatty: error: %snot every rank started within %g s: one stopped or hung before the ranks met "
                 "(--rank_timeout=%g)\n",
                 rank > 0 ? ("rank " + std::to_string(rank) + ": ").c_str() : "", timeout_s, timeout_s);
    std::fflush(stderr);
    std::_Exit(1);  // MPI_Abort is not callable before MPI_Init returns
  }

  std::mutex m_;
  std::condition_variable cv_;
  bool met_ = false;
  std::thread thread_;
};

StartGuard g_guard;

}  // namespace

void arm_start_guard(double timeout_s, int rank) { g_guard.arm(timeout_s, rank); }
void disarm_start_guard() { g_guard.disarm(); }

}  // namespace chatty::mpi
