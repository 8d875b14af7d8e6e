// Records by MPI_Put into the receivers' windows (the one-sided data path).
#include <algorithm>
#include <cstring>
#include <vector>

#include "comm/transport_table.h"
#include "cpu_cluster/mpi/mpi_util.h"
#include "cpu_cluster/mpi/transports.h"

namespace chatty::mpi {
namespace {

// Each rank's window holds, for each parity, local receiver and sender,
// a count word and a slot of records. A sender puts its records and their
// count into the receiver's slot, flushes, and meets every rank; then each
// receiver views its slots in place. The meeting is inside the exchange,
// so the runtime's sync adds none (receiver_driven).
class PutTransport : public Transport {
 public:
  PutTransport(const ClusterPlace& place, size_t slot_records, size_t item_bytes)
      : place_(place),
        slot_records_(std::max<size_t>(slot_records, 1)),
        slot_bytes_(slot_records_ * item_bytes),
        slots_(size_t(2 * place.local * place.devices())),
        meeting_(place.local),
        overflow_(size_t(place.local), 0),
        counts_(size_t(place.local) * size_t(place.devices()), 0) {
    const MPI_Aint bytes = MPI_Aint(slots_) * MPI_Aint(sizeof(uint64_t) + slot_bytes_);
    check_mpi(MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base_, &win_), "MPI_Win_allocate");
    prepare_window(win_, comm_name(Comm::kMpiPut));
    std::memset(base_, 0, slots_ * sizeof(uint64_t));
    check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_), "MPI_Win_lock_all");
  }
  ~PutTransport() override {
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
  }

  const char* name() const override { return comm_name(Comm::kMpiPut); }
  bool can_connect(int, int) const override { return true; }
  bool receiver_driven() const override { return true; }

  void exchange(Mailboxes& mb, int d, int parity) override {
    const int D = place_.devices();
    char& overflow = overflow_[size_t(d % place_.local)];
    overflow = 0;
    for (int to = 0; to < D; ++to) {
      if (to == d) continue;
      const Slot& s = mb.outgoing(d, parity, to);
      uint64_t count = s.count;
      if (count > slot_records_) overflow = 1, count = 0;
      const size_t slot = index(parity, to % place_.local, d);
      const int rank = place_.rank_of(to);
      if (rank == place_.rank) {
        if (count) std::memcpy(data_at(slot), s.data, count * mb.item_bytes());
        count_at(slot) = count;
        continue;
      }
      if (count) {
        check_mpi(MPI_Put(s.data, int(count * mb.item_bytes()), MPI_BYTE, rank, data_disp(slot),
                          int(count * mb.item_bytes()), MPI_BYTE, win_),
                  "MPI_Put");
        count_op(MpiOp::kPut, rank);
      }
      uint64_t& sent = counts_[size_t(d % place_.local) * size_t(D) + size_t(to)];
      sent = count;
      check_mpi(MPI_Accumulate(&sent, 1, MPI_UINT64_T, rank, MPI_Aint(slot * sizeof(uint64_t)), 1, MPI_UINT64_T,
                               MPI_REPLACE, win_),
                "MPI_Accumulate");
      count_op(MpiOp::kAtomic, rank);
    }
    check_mpi(MPI_Win_flush_all(win_), "MPI_Win_flush_all");
    count_op(MpiOp::kFlush, place_.rank);
    meeting_.meet(d, [&] {
      count_op(MpiOp::kCollective, place_.rank);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Win_sync(win_);
    });
    for (int from = 0; from < D; ++from) {
      if (from == d) continue;
      Slot& r = mb.recv(parity, d, from);
      const size_t slot = index(parity, d % place_.local, from);
      r.storage = r.data = data_at(slot);
      r.capacity = slot_bytes_;
      r.count = count_at(slot);
    }
    CHATTY_CHECK(!overflow, "a device sent more records than a cluster slot holds (" + std::to_string(slot_records_) +
                                "; internal error)");
  }

 private:
  size_t index(int parity, int receiver_local, int sender) const {
    return (size_t(parity) * size_t(place_.local) + size_t(receiver_local)) * size_t(place_.devices()) + size_t(sender);
  }
  MPI_Aint data_disp(size_t slot) const { return MPI_Aint(slots_ * sizeof(uint64_t) + slot * slot_bytes_); }
  std::byte* data_at(size_t slot) { return static_cast<std::byte*>(base_) + data_disp(slot); }
  uint64_t& count_at(size_t slot) { return static_cast<uint64_t*>(base_)[slot]; }

  const ClusterPlace place_;
  const size_t slot_records_, slot_bytes_, slots_;
  RankMeeting meeting_;
  std::vector<char> overflow_;
  std::vector<uint64_t> counts_;  // per local sender and receiver: the count put last
  MPI_Win win_ = MPI_WIN_NULL;
  void* base_ = nullptr;
};

}  // namespace

std::unique_ptr<Transport> make_put_transport(const ClusterPlace& place, size_t slot_records, size_t item_bytes) {
  return std::make_unique<PutTransport>(place, slot_records, item_bytes);
}

}  // namespace chatty::mpi
