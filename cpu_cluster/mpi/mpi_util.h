// What the MPI implementations of the cluster seam share.
#pragma once

#include <mpi.h>
#include <sys/mman.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cpu_cluster/cluster.h"
#include "runtime/base/status.h"

namespace chatty::mpi {

// The communicator whose processes are the run's ranks: a copy of
// MPI_COMM_WORLD (a launcher's ranks) or of the one an embedding program
// handed the library, made by cluster_start; every collective, window and
// message of the cluster layer is over it, so a program's own traffic on
// its other communicators never meets the engine's.
inline MPI_Comm& ranks_comm() {
  static MPI_Comm comm = MPI_COMM_WORLD;
  return comm;
}

// Counts `n` operations of `op` this rank issued to `target` (cpu_cluster/cluster.h's
// cluster_ops); callable from any thread.
void count_op(MpiOp op, int target, uint64_t n = 1);
// Sizes the counts for `ranks` ranks: at MPI's start.
void start_op_counts(int ranks);

// Frees the window cluster_exposed keeps between runs (a collective).
void release_exposed();

// Throws chatty::Error naming the call and MPI's reason.
inline void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(std::string(what) + ": " + std::string(text, size_t(len)));
}

// Whether the cluster layer's windows are shared (every rank reaches the
// others' parts by loads and stores: window_ops.h). Set once, by
// decide_shared_windows.
inline bool& shared_windows() {
  static bool shared = false;
  return shared;
}

// Collective, in cluster_start: windows are shared when every rank asks
// for it (`wanted`: not --net=mpi), every rank is on this node
// (MPI_COMM_TYPE_SHARED), and a trial shared window can be made on every
// rank (OpenMPI's osc ucx, chosen by the user, makes none). Every rank
// comes to the same answer.
inline void decide_shared_windows(bool wanted, MPI_Comm node) {
  int here = 0, all = 0;
  MPI_Comm_size(node, &here);
  MPI_Comm_size(ranks_comm(), &all);
  int ok = wanted && here == all;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, ranks_comm()), "MPI_Allreduce");
  if (ok) {
    void* base = nullptr;
    MPI_Win trial = MPI_WIN_NULL;
    ok = MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, ranks_comm(), &base, &trial) == MPI_SUCCESS;
    if (ok) MPI_Win_free(&trial);
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, ranks_comm()), "MPI_Allreduce");
  }
  shared_windows() = ok != 0;
}

// Whether this process may map `bytes` more of address space (the limit
// of `ulimit -v`; memory itself is not reserved). Every rank maps the
// node's whole shared segment, so a rank under a lower limit may fail to
// map it where the others do not; OpenMPI's osc sm then fails on that
// rank alone and another component makes its window, on which
// MPI_Win_shared_query crashes.
inline bool can_map(size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return false;
  ::munmap(p, bytes);
  return true;
}

// Shared windows are files in /dev/shm (OpenMPI's osc sm, MPICH), made
// without their pages: where the file system cannot hold them all, a rank
// dies of SIGBUS when it first writes one, and the launcher may wait for
// good; where a rank's address space cannot hold them, it crashes inside
// MPI. Collective: every rank refuses alike, before allocating.
inline void check_shared_room(size_t bytes) {
  uint64_t need = bytes, room = UINT64_MAX;
  struct statvfs fs {};
  if (::statvfs("/dev/shm", &fs) == 0) room = uint64_t(fs.f_bavail) * uint64_t(fs.f_frsize);
  if (const int64_t faked = cluster_fault_shm_free_mb(); faked >= 0) room = uint64_t(faked) << 20;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &need, 1, MPI_UINT64_T, MPI_SUM, ranks_comm()), "MPI_Allreduce");
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &room, 1, MPI_UINT64_T, MPI_MIN, ranks_comm()), "MPI_Allreduce");
  if (need > room)
    throw AgreedError("a shared window of the ranks needs " + std::to_string(need >> 20) +
                      " MB in /dev/shm, which has " + std::to_string(room >> 20) +
                      " MB free (make it larger: mount -o remount,size=...; or run with --net=mpi)");
  // The segment, and room for what MPI maps beside it.
  constexpr uint64_t kBeside = uint64_t(1) << 20;
  int ranks = 0;
  MPI_Comm_size(ranks_comm(), &ranks);
  const int mine = can_map(size_t(need + kBeside)) ? 0 : 1;
  std::vector<int> short_of(static_cast<size_t>(ranks));
  check_mpi(MPI_Allgather(&mine, 1, MPI_INT, short_of.data(), 1, MPI_INT, ranks_comm()), "MPI_Allgather");
  std::vector<int> failed;
  for (int r = 0; r < ranks; ++r)
    if (short_of[size_t(r)]) failed.push_back(r);
  if (!failed.empty())
    throw AgreedError(ranks_named(failed) + " cannot map the ranks' shared window of " +
                      std::to_string((need + kBeside) >> 20) + " MB: out of address space (ulimit -v)");
}

// A window over ranks_comm() with the size rounded up to 64 bytes:
// MPICH (ch4, UCX) lays the node's windows out in one shared segment, and
// with three ranks or more a size that is not a multiple of 16 bytes left
// a rank's own view of its window displaced from where the other ranks'
// puts and accumulates land. Shared (MPI_Win_allocate_shared, each rank's
// part on its own pages) where shared_windows(): WindowOps (window_ops.h)
// then reaches the other ranks' parts by loads and stores.
inline void allocate_window(size_t bytes, int disp_unit, void* base, MPI_Win* win) {
  const size_t rounded = (std::max<size_t>(bytes, 1) + 63) & ~size_t(63);
  if (!shared_windows()) {
    check_mpi(MPI_Win_allocate(MPI_Aint(rounded), disp_unit, MPI_INFO_NULL, ranks_comm(), base, win),
              "MPI_Win_allocate");
    return;
  }
  check_shared_room(rounded);
  MPI_Info info;
  check_mpi(MPI_Info_create(&info), "MPI_Info_create");
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  const int rc = MPI_Win_allocate_shared(MPI_Aint(rounded), disp_unit, info, ranks_comm(), base, win);
  MPI_Info_free(&info);
  check_mpi(rc, "MPI_Win_allocate_shared");
}

// Unlocks (from MPI_Win_lock_all) and frees a window of the cluster layer,
// unless this rank unwinds an error of its own (unwinding_alone):
// MPI_Win_free is a collective the other ranks would never meet.
inline void release_window(MPI_Win* win) {
  if (unwinding_alone()) return;
  MPI_Win_unlock_all(*win);
  MPI_Win_free(win);
}

// Every window of the cluster layer, once allocated: its errors come back
// as codes (check_mpi) instead of aborting, and its memory model must be
// unified (the public and private copies one), as the rings' and
// worklists' polling of their own words with MPI_Win_sync and atomic
// loads needs. Throws chatty::Error naming `what` otherwise.
inline void prepare_window(MPI_Win win, const char* what) {
  check_mpi(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
  int* model = nullptr;
  int found = 0;
  check_mpi(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &found), "MPI_Win_get_attr");
  if (found && *model != MPI_WIN_UNIFIED)
    throw Error(std::string(what) +
                ": this MPI library gives windows the separate memory model; the cluster layer "
                "needs the unified one (OpenMPI's osc sm/ucx, MPICH)");
}

// Flushes this process's output and gives the launcher time to forward
// it, before a rank ends the job: MPICH's launcher, told of an abort (or
// an exit) while its machine is busy, has ended the job with the error
// line still in the rank's pipe, unread.
inline void let_lines_out() {
  std::fflush(stdout);
  std::fflush(stderr);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
}

// Lets MPI move what others put while a rank polls its own window
// (MPICH and osc ucx progress only inside calls); no message is read.
inline void poke_progress() {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, ranks_comm(), &flag, MPI_STATUS_IGNORE);
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
