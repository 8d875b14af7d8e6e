// What the MPI implementations of the cluster seam share.
#pragma once

#include <mpi.h>

#include <barrier>
#include <string>

#include "runtime/status.h"

namespace chatty::mpi {

// Throws chatty::Error naming the call and MPI's reason.
inline void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(std::string(what) + ": " + std::string(text, size_t(len)));
}

// A barrier for the rank's device threads, then one MPI collective by the
// first of them, then a second barrier so that no thread reads the
// collective's result before it is there.
class RankMeeting {
 public:
  explicit RankMeeting(int local) : local_(local), threads_(local) {}
  template <typename F>
  void meet(int d, F collective) {
    threads_.arrive_and_wait();
    if (d % local_ == 0) collective();
    threads_.arrive_and_wait();
  }

 private:
  const int local_;
  std::barrier<> threads_;
};

}  // namespace chatty::mpi
