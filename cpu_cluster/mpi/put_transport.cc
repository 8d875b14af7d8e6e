// Records put into the receivers' windows (the one-sided data path: MPI_Put,
// or a copy into a shared window's part: window_ops.h).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <vector>

#include "comm/transport_table.h"
#include "cpu_cluster/mpi/mpi_util.h"
#include "cpu_cluster/mpi/transports.h"
#include "cpu_cluster/mpi/window_ops.h"
#include "cpu_cluster/poll_backoff.h"
#include "cpu_cluster/put_slots.h"

namespace chatty::mpi {
namespace {

// Each rank's window holds the slots of cpu_cluster/put_slots.h. A sender
// puts its records into the receiver's slot, flushes, then writes the
// count word with an accumulate; the receiver polls its own count words
// until each bears this exchange's number, then views its slots in place.
// No rank meets another (receivers are passive): a sender writes a
// parity's slot again two exchanges later, after the status agreement that
// the receiver joins only once it has read it.
//
// Where the ranks map each other's windows, a host device's broadcast
// buffer is its outbox in its own rank's window (lent at prepare): its
// compaction writes the records there, the count word says so, and the
// receivers merge from it in place, as devices of one process read each
// other's send buffers (host_view). The same rule keeps an outbox unwritten
// until its readers are done with it.
class PutTransport : public Transport {
 public:
  PutTransport(const ClusterPlace& place, size_t slot_records, size_t item_bytes)
      : place_(place),
        at_(place, slot_records, item_bytes, shared_windows()),
        overflow_(size_t(place.local), 0),
        counts_(size_t(place.local) * size_t(place.devices()), 0),
        read_(size_t(place.local) * size_t(place.devices()), 0) {
    allocate_window(at_.region_bytes(), 1, &base_, &win_);
    prepare_window(win_, comm_name(Comm::kMpiPut));
    ops_ = std::make_unique<WindowOps>(win_);
    // The count words must start at zero. The slots are touched here too,
    // up to kTouchedBytes: a first write into a page of a shared window
    // faults (about 3.5 us a page under osc sm), and would in the timed
    // superstep (BFS on kron:20, 2 ranks: 1.6 of a 16 ms run), not here in
    // the setup.
    const size_t window = at_.region_bytes();
    std::memset(base_, 0, window <= kTouchedBytes ? window : at_.slots * sizeof(uint64_t));
    check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_), "MPI_Win_lock_all");
  }
  ~PutTransport() override { release_window(&win_); }

  const char* name() const override {
    return at_.outboxes ? "mpi_put (broadcasts read in place from the sender's window)" : comm_name(Comm::kMpiPut);
  }
  bool can_connect(int, int) const override { return true; }
  bool receiver_driven() const override { return true; }

  void prepare(Mailboxes& mb, int d) override {
    if (!at_.outboxes || mb.endpoint(d).space != MemorySpace::kHost) return;
    for (int parity = 0; parity < 2; ++parity) {
      Slot& s = mb.send(d, parity);
      s.lent = static_cast<std::byte*>(base_) + at_.outbox_offset(parity, d % place_.local);
      s.lent_capacity = at_.bytes;
    }
  }

  void exchange(Mailboxes& mb, int d, int parity) override {
    const int D = place_.devices(), me = d % place_.local;
    char& overflow = overflow_[size_t(me)];
    overflow = 0;
    for (int to = 0; to < D; ++to) {  // the records first: they land before any count word
      if (to == d) continue;
      const Slot& s = mb.outgoing(d, parity, to);
      if (s.in_lent()) continue;  // read in place
      if (s.count > at_.records) overflow = 1;
      const size_t slot = at_.index(parity, to % place_.local, d);
      const size_t bytes = overflow ? 0 : s.count * mb.item_bytes();
      const int rank = place_.rank_of(to);
      if (rank == place_.rank) {
        if (bytes) std::memcpy(data_at(slot), s.data, bytes);
      } else if (bytes) {
        ops_->put(rank, data_disp(slot), s.data, bytes);
      }
    }
    ops_->flush_all(place_.rank);
    for (int to = 0; to < D; ++to) {
      if (to == d) continue;
      const Slot& s = mb.outgoing(d, parity, to);
      const uint64_t count = overflow ? 0 : s.count;
      uint64_t& word = counts_[size_t(me) * size_t(D) + size_t(to)];
      word = PutSlots::next_word(word, count, !overflow && s.in_lent());
      const size_t slot = at_.index(parity, to % place_.local, d);
      const int rank = place_.rank_of(to);
      if (rank == place_.rank) {
        std::atomic_ref<uint64_t>(count_at(slot)).store(word, std::memory_order_release);
        continue;
      }
      ops_->replace(rank, MPI_Aint(at_.count_offset(slot)), word);
    }
    ops_->flush_all(place_.rank);
    for (int from = 0; from < D; ++from) {
      if (from == d) continue;
      const size_t slot = at_.index(parity, me, from);
      uint64_t& last = read_[size_t(me) * size_t(D) + size_t(from)];
      uint64_t word;
      for (PollBackoff wait;
           !PutSlots::follows(word = std::atomic_ref<uint64_t>(count_at(slot)).load(std::memory_order_acquire), last);
           wait.pause()) {
        MPI_Win_sync(win_);
        poke_progress();
      }
      last = word;
      Slot& r = mb.recv(parity, d, from);
      r.storage = r.data = data_at(slot);
      if (PutSlots::in_outbox(word))
        r.data = ops_->at(place_.rank_of(from), MPI_Aint(at_.outbox_offset(parity, from % place_.local)));
      r.capacity = at_.bytes;
      r.count = PutSlots::count_of(word);
    }
    CHATTY_CHECK(!overflow, "a device sent more records than a cluster slot holds (" + std::to_string(at_.records) +
                                "; internal error)");
  }

 private:
  MPI_Aint data_disp(size_t slot) const { return MPI_Aint(at_.data_offset(slot)); }
  std::byte* data_at(size_t slot) { return static_cast<std::byte*>(base_) + data_disp(slot); }
  uint64_t& count_at(size_t slot) { return static_cast<uint64_t*>(base_)[slot]; }

  static constexpr size_t kTouchedBytes = size_t(256) << 20;  // a window up to this is touched whole at setup

  const ClusterPlace place_;
  const PutSlots at_;
  std::vector<char> overflow_;
  std::vector<uint64_t> counts_;  // [local sender][receiver]: the count word written last
  std::vector<uint64_t> read_;    // [local receiver][sender]: the count word read last
  MPI_Win win_ = MPI_WIN_NULL;
  void* base_ = nullptr;
  std::unique_ptr<WindowOps> ops_;
};

}  // namespace

std::unique_ptr<Transport> make_put_transport(const ClusterPlace& place, size_t slot_records, size_t item_bytes) {
  return std::make_unique<PutTransport>(place, slot_records, item_bytes);
}

}  // namespace chatty::mpi

namespace chatty {

size_t put_window_bytes(const ClusterPlace& place, size_t slot_records, size_t item_bytes) {
  return PutSlots(place, slot_records, item_bytes, mpi::shared_windows()).region_bytes();
}

}  // namespace chatty
