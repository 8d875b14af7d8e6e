// One-sided access to the ranks' parts of a window, by MPI's calls or, on
// one node, by loads and stores. Where the window is shared
// (allocate_window made it with MPI_Win_allocate_shared: mpi_util.h's
// shared_windows()), each rank's part is mapped here (MPI_Win_shared_query)
// and an access is a copy, an atomic or a fence on it, as MPI's unified
// shared-memory model allows. Otherwise each access is the MPI call.
//
// Why both: MPICH (ch4 over UCX) serves every put, accumulate and flush of
// a window, shared or not, as active messages that move only while the
// target is inside an MPI call, so a busy receiver holds up its senders
// (that way a grid BFS at 2 ranks takes 2.2x one process's time). The direct path keeps
// receivers passive under any library; the MPI calls remain the path
// between nodes. Every access counts as the MPI operation it stands for
// (cluster_ops).
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cpu_cluster/mpi/mpi_util.h"

namespace chatty::mpi {

// Displacements are in the window's units, as MPI's are.
class WindowOps {
 public:
  // `win`: made by allocate_window.
  explicit WindowOps(MPI_Win win) : win_(win) {
    int* flavor = nullptr;
    int found = 0;
    check_mpi(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &found), "MPI_Win_get_attr");
    if (!found || *flavor != MPI_WIN_FLAVOR_SHARED) return;
    int ranks = 0;
    MPI_Comm_size(mpi::ranks_comm(), &ranks);
    parts_.resize(size_t(ranks));
    units_.resize(size_t(ranks));
    for (int r = 0; r < ranks; ++r) {
      MPI_Aint size = 0;
      int unit = 0;
      void* base = nullptr;
      check_mpi(MPI_Win_shared_query(win, r, &size, &unit, &base), "MPI_Win_shared_query");
      parts_[size_t(r)] = static_cast<std::byte*>(base);
      units_[size_t(r)] = MPI_Aint(unit);
    }
  }

  bool direct() const { return !parts_.empty(); }

  void put(int rank, MPI_Aint disp, const void* from, size_t bytes) {
    count_op(MpiOp::kPut, rank);
    if (direct()) {
      std::memcpy(at(rank, disp), from, bytes);
      return;
    }
    check_mpi(MPI_Put(from, int(bytes), MPI_BYTE, rank, disp, int(bytes), MPI_BYTE, win_), "MPI_Put");
  }
  void get(int rank, MPI_Aint disp, void* into, size_t bytes) {
    count_op(MpiOp::kGet, rank);
    if (direct()) {
      std::memcpy(into, at(rank, disp), bytes);
      return;
    }
    check_mpi(MPI_Get(into, int(bytes), MPI_BYTE, rank, disp, int(bytes), MPI_BYTE, win_), "MPI_Get");
  }
  // The word at `disp` becomes `value`, atomically for its readers
  // (MPI_Accumulate with MPI_REPLACE). Lands at the next flush; on the
  // direct path, after every earlier put.
  void replace(int rank, MPI_Aint disp, uint64_t value) {
    count_op(MpiOp::kAtomic, rank);
    if (direct()) {
      word(rank, disp).store(value, std::memory_order_release);
      return;
    }
    check_mpi(MPI_Accumulate(&value, 1, MPI_UINT64_T, rank, disp, 1, MPI_UINT64_T, MPI_REPLACE, win_),
              "MPI_Accumulate");
    // `value` dies with this call: MPI may read it until local completion.
    check_mpi(MPI_Win_flush_local(rank, win_), "MPI_Win_flush_local");
  }
  // MPI_Fetch_and_op then MPI_Win_flush: the word's old value. `op` is
  // MPI_SUM, MPI_REPLACE or MPI_NO_OP.
  uint64_t fetch_op(int rank, MPI_Aint disp, uint64_t operand, MPI_Op op) {
    count_op(MpiOp::kAtomic, rank);
    count_op(MpiOp::kFlush, rank);
    if (direct()) {
      std::atomic_ref<uint64_t> w = word(rank, disp);
      if (op == MPI_SUM) return w.fetch_add(operand, std::memory_order_acq_rel);
      if (op == MPI_REPLACE) return w.exchange(operand, std::memory_order_acq_rel);
      return w.load(std::memory_order_acquire);
    }
    uint64_t old = 0;
    check_mpi(MPI_Fetch_and_op(&operand, &old, MPI_UINT64_T, rank, disp, op, win_), "MPI_Fetch_and_op");
    check_mpi(MPI_Win_flush(rank, win_), "MPI_Win_flush");
    return old;
  }
  // MPI_Compare_and_swap then MPI_Win_flush: the word's value before.
  uint64_t compare_swap(int rank, MPI_Aint disp, uint64_t expected, uint64_t desired) {
    count_op(MpiOp::kAtomic, rank);
    count_op(MpiOp::kFlush, rank);
    if (direct()) {
      word(rank, disp).compare_exchange_strong(expected, desired, std::memory_order_acq_rel);
      return expected;
    }
    uint64_t seen = 0;
    check_mpi(MPI_Compare_and_swap(&desired, &expected, &seen, MPI_UINT64_T, rank, disp, win_), "MPI_Compare_and_swap");
    check_mpi(MPI_Win_flush(rank, win_), "MPI_Win_flush");
    return seen;
  }
  // Every access so far to `rank` has landed.
  void flush(int rank) {
    count_op(MpiOp::kFlush, rank);
    if (direct()) {
      std::atomic_thread_fence(std::memory_order_seq_cst);
      return;
    }
    check_mpi(MPI_Win_flush(rank, win_), "MPI_Win_flush");
  }
  // Every access so far has landed; counted against `me`.
  void flush_all(int me) {
    count_op(MpiOp::kFlush, me);
    if (direct()) {
      std::atomic_thread_fence(std::memory_order_seq_cst);
      return;
    }
    check_mpi(MPI_Win_flush_all(win_), "MPI_Win_flush_all");
  }
  // Rank's part at `disp`, mapped here: direct() only.
  std::byte* at(int rank, MPI_Aint disp) const { return parts_[size_t(rank)] + disp * units_[size_t(rank)]; }

 private:
  std::atomic_ref<uint64_t> word(int rank, MPI_Aint disp) const {
    return std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(at(rank, disp)));
  }

  MPI_Win win_;
  std::vector<std::byte*> parts_;  // per rank, when the window is shared
  std::vector<MPI_Aint> units_;    // per rank: its displacement unit
};

}  // namespace chatty::mpi
