// Exposed memory over one MPI window per rank (allocate_window, locked for
// every rank once). A pattern is an indexed-block datatype over the owner's
// region, so the source values of a migrated block come in one MPI_Get
// however scattered they are; a shared window (window_ops.h) copies them
// one by one instead.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>

#include "cpu_cluster/mpi/mpi_util.h"
#include "cpu_cluster/mpi/window_ops.h"
#include "runtime/migration/exposed_memory.h"

namespace chatty {
namespace {

using mpi::check_mpi;

// What a shared window copies one by one (the items), or else the MPI
// datatype one MPI_Get reads them with: each pattern holds only what its
// window's path uses.
class IndexedPattern : public ExposedMemory::Pattern {
 public:
  IndexedPattern(const uint32_t* items, size_t count, size_t item_bytes, bool copied)
      : count_(count), item_bytes_(item_bytes), bytes_(count * item_bytes) {
    CHATTY_CHECK(count < size_t(INT_MAX) && bytes_ < size_t(INT_MAX), "a migrated block reads too many values");
    if (copied) {
      items_.assign(items, items + count);
      return;
    }
    MPI_Datatype item = MPI_DATATYPE_NULL;
    check_mpi(MPI_Type_contiguous(int(item_bytes), MPI_BYTE, &item), "MPI_Type_contiguous");
    const std::vector<int> at(items, items + count);
    check_mpi(MPI_Type_create_indexed_block(int(count), 1, at.data(), item, &type_), "MPI_Type_create_indexed_block");
    check_mpi(MPI_Type_commit(&type_), "MPI_Type_commit");
    MPI_Type_free(&item);
  }
  ~IndexedPattern() override {
    if (type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
  }
  size_t count() const override { return count_; }
  size_t bytes() const { return bytes_; }
  MPI_Datatype type() const { return type_; }
  // The items one by one from `region` into `into` (made `copied`).
  void copy(const std::byte* region, void* into) const {
    for (size_t i = 0; i < count_; ++i)
      std::memcpy(static_cast<std::byte*>(into) + i * item_bytes_, region + size_t(items_[i]) * item_bytes_,
                  item_bytes_);
  }

 private:
  size_t count_, item_bytes_, bytes_;
  std::vector<uint32_t> items_;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

class WindowMemory : public ExposedMemory {
 public:
  WindowMemory(const ClusterPlace& place, const std::vector<size_t>& bytes)
      : place_(place), at_(size_t(place.devices())) {
    CHATTY_CHECK(bytes.size() == size_t(place.local), "one exposed region per local device (internal error)");
    std::vector<uint64_t> mine(bytes.size());
    uint64_t total = 0;
    for (size_t i = 0; i < bytes.size(); ++i) mine[i] = total, total += (bytes[i] + 63) / 64 * 64;
    check_mpi(
        MPI_Allgather(mine.data(), place.local, MPI_UINT64_T, at_.data(), place.local, MPI_UINT64_T, mpi::ranks_comm()),
        "MPI_Allgather");
    mpi::allocate_window(size_t(total), 1, &base_, &win_);
    mpi::prepare_window(win_, "exposed memory");
    ops_ = std::make_unique<mpi::WindowOps>(win_);
    check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_), "MPI_Win_lock_all");
  }
  ~WindowMemory() override {
    if (unwinding_alone()) return;
    MPI_Barrier(mpi::ranks_comm());  // no peer still reads this rank's regions
    mpi::release_window(&win_);
  }

  std::byte* local(int d) override { return static_cast<std::byte*>(base_) + at_[size_t(d)]; }
  const std::byte* read_in_place(int owner) override {
    if (!ops_->direct()) return nullptr;
    const auto [rank, disp] = where(owner, 0);
    mpi::count_op(MpiOp::kGet, rank);  // the reads in place that a get stands for
    return ops_->at(rank, disp);
  }

  void get(int owner, size_t offset, void* into, size_t bytes) override {
    // Plain names, not a structured binding: clang cannot capture one.
    const std::pair<int, MPI_Aint> at = where(owner, offset);
    const int rank = at.first;
    const MPI_Aint disp = at.second;
    in_parts(bytes, [&](size_t done, int part) {
      ops_->get(rank, disp + MPI_Aint(done), static_cast<std::byte*>(into) + done, size_t(part));
    });
  }
  std::unique_ptr<Pattern> pattern(const uint32_t* items, size_t count, size_t item_bytes) override {
    return std::make_unique<IndexedPattern>(items, count, item_bytes, ops_->direct());
  }
  void get(int owner, size_t offset, const Pattern& p, void* into) override {
    const auto& ip = static_cast<const IndexedPattern&>(p);
    if (ip.count() == 0) return;
    const auto [rank, disp] = where(owner, offset);
    mpi::count_op(MpiOp::kGet, rank);
    if (ops_->direct())
      ip.copy(ops_->at(rank, disp), into);
    else
      check_mpi(MPI_Get(into, int(ip.bytes()), MPI_BYTE, rank, disp, 1, ip.type(), win_), "MPI_Get");
  }
  void put(int owner, size_t offset, const void* from, size_t bytes) override {
    // Plain names, not a structured binding: clang cannot capture one.
    const std::pair<int, MPI_Aint> at = where(owner, offset);
    const int rank = at.first;
    const MPI_Aint disp = at.second;
    in_parts(bytes, [&](size_t done, int part) {
      ops_->put(rank, disp + MPI_Aint(done), static_cast<const std::byte*>(from) + done, size_t(part));
    });
  }
  void complete(int owner) override { ops_->flush(place_.rank_of(owner)); }
  void sync() override { check_mpi(MPI_Win_sync(win_), "MPI_Win_sync"); }

 private:
  // f(done, part) over `bytes` in parts that fit MPI's int counts.
  template <typename F>
  static void in_parts(size_t bytes, F f) {
    for (size_t done = 0; done < bytes;) {
      const int part = int(std::min<size_t>(bytes - done, size_t(1) << 30));
      f(done, part);
      done += size_t(part);
    }
  }
  std::pair<int, MPI_Aint> where(int owner, size_t offset) const {
    return {place_.rank_of(owner), MPI_Aint(at_[size_t(owner)] + offset)};
  }

  const ClusterPlace place_;
  std::vector<uint64_t> at_;  // every device's region: where it starts in its rank's window
  MPI_Win win_ = MPI_WIN_NULL;
  void* base_ = nullptr;
  std::unique_ptr<mpi::WindowOps> ops_;
};

}  // namespace

namespace {

// Freed by mpi::release_exposed before MPI is finalised (at exit, or by
// the program that embeds the library).
std::unique_ptr<WindowMemory> kept;
std::vector<size_t> kept_bytes;

}  // namespace

void mpi::release_exposed() {
  kept.reset();
  kept_bytes.clear();
}

ExposedMemory& cluster_exposed(const ClusterPlace& place, const std::vector<size_t>& bytes) {
  int changed = !kept || kept_bytes != bytes;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &changed, 1, MPI_INT, MPI_LOR, mpi::ranks_comm()), "MPI_Allreduce");
  if (changed) {
    kept.reset();
    kept = std::make_unique<WindowMemory>(place, bytes);
    kept_bytes = bytes;
  }
  return *kept;
}

}  // namespace chatty
