// The thread a Python thread's runs execute on, kept for its next run: the
// caller stays free to poll for Ctrl-C, and the runs keep one OpenMP team
// (a fresh thread per call, and so a fresh team, measured 1.11x the CLI's
// compute for kron:18's PageRank; one kept, 1.02x).
#pragma once

#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <thread>

namespace chatty::py {

class RunWorker {
 public:
  RunWorker() : thread_([this] { serve(); }) {}
  ~RunWorker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  RunWorker(const RunWorker&) = delete;
  RunWorker& operator=(const RunWorker&) = delete;

  // Runs f on the worker; the future holds its value or exception.
  template <typename R>
  std::future<R> submit(std::function<R()> f) {
    auto task = std::make_shared<std::packaged_task<R()>>(std::move(f));
    std::future<R> done = task->get_future();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      next_ = [task] { (*task)(); };
    }
    wake_.notify_one();
    return done;
  }

  // The calling thread's worker, made on its first run and joined when
  // the thread ends.
  static RunWorker& of_this_thread() {
    thread_local RunWorker worker;
    return worker;
  }

 private:
  void serve() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return stopping_ || next_; });
        if (!next_) return;
        job = std::move(next_);
        next_ = nullptr;
      }
      job();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::function<void()> next_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the rest is made
};

}  // namespace chatty::py
