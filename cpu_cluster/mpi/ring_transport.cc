// Records streamed through rings in the receivers' memory (RGraph
// section 4): for every (sender, receiver) pair of devices on different
// ranks, `lanes` rings (one per thread of the sender's team: a device's
// threads put their share of its records at once, and the receiver's
// threads read one lane each) sharing `ring_bytes` in the receiver's
// window, each with a head word the sender writes, and a tail word in the
// sender's window the receiver writes (one writer per word, each written
// by an accumulate and read by its owner). A sender cuts its
// records into batches of at most `batch_bytes`, each an 8-byte header
// (record count, end-of-superstep flag) and the records; it puts a batch,
// flushes (MPI does not order the bytes of puts), then puts the new head.
// It re-reads the tail only when the ring looks full, and a receiver
// publishes its tail every half ring, so a ring of any size carries any
// number of records: memory per rank is rings, not a slot per vertex.
// While a sender's lane waits for room it drains its own lane's rings, and
// a receiver's lane stops at each sender's end flag in that lane, so no
// lane waits on one that waits on it. Devices of one rank read each other's send buffers directly.
//
// Receivers are passive: what a pair's exchange holds is announced by a
// notice word in the receiver's window, which the sender writes with an
// accumulate and the receiver polls: nothing, a message, or the ring. The
// payload keeps the RDMA thesis's switch (two-sided below a size,
// one-sided above): records under `small_bytes` travel as one two-sided
// message, eagerly buffered by MPI, which spares the ring's flushes and
// head words; larger ones go through the ring. A pair with no records
// exchanges no message at all: one accumulate says so.
#include <omp.h>

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

namespace chatty::mpi {
namespace {

constexpr uint64_t kEnd = uint64_t(1) << 63;  // header flag: the sender's last batch of the superstep
constexpr size_t kHeader = sizeof(uint64_t);
// A notice is the pair's exchange number times 4 plus what it holds.
enum Notice : uint64_t { kNothing = 1, kMessage = 2, kRing = 3 };

size_t round8(size_t b) { return (b + 7) & ~size_t(7); }

class RingTransport : public Transport {
 public:
  RingTransport(const ClusterPlace& place, size_t item_bytes, size_t ring_bytes, size_t batch_bytes, size_t small_bytes,
                int lanes)
      : place_(place),
        D_(place.devices()),
        lanes_(agreed_lanes(lanes)),
        item_(item_bytes),
        ring_(std::max<size_t>(round8(ring_bytes / size_t(lanes_)), 4 * (kHeader + round8(item_bytes)))),
        batch_records_(std::max<size_t>(1, std::min(batch_bytes, ring_ / 2 - kHeader) / item_bytes)),
        words_(size_t(place.local) * size_t(D_) * size_t(lanes_)),
        pairs_(size_t(place.local) * size_t(D_)),
        send_(words_),
        recv_(words_),
        slots_(size_t(2) * size_t(place.local) * size_t(D_)),
        small_(small_bytes),
        sent_notices_(pairs_),
        read_notices_(pairs_),
        sends_(size_t(place.local)) {
    for (Received& in : slots_) in.lanes.resize(size_t(lanes_)), in.ended.resize(size_t(lanes_));
    check_mpi(MPI_Comm_dup(mpi::ranks_comm(), &comm_), "MPI_Comm_dup");  // its tags are this transport's alone
    // Window: head words [local receiver][sender][lane], tail words [local
    // sender][receiver][lane], notice words [local receiver][sender], then
    // the rings [local receiver][sender][lane].
    const MPI_Aint bytes = MPI_Aint(control_words() * sizeof(uint64_t) + words_ * ring_);
    allocate_window(size_t(bytes), 1, &base_, &win_);
    prepare_window(win_, comm_name(Comm::kMpiRing));
    ops_ = std::make_unique<WindowOps>(win_);
    std::memset(base_, 0, control_words() * sizeof(uint64_t));
    check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_), "MPI_Win_lock_all");
    MPI_Barrier(mpi::ranks_comm());  // every window zeroed before any put
  }
  ~RingTransport() override {
    if (unwinding_alone()) return;  // MPI_Comm_free is a collective too
    release_window(&win_);
    MPI_Comm_free(&comm_);
  }

  const char* name() const override { return comm_name(Comm::kMpiRing); }
  bool can_connect(int, int) const override { return true; }
  bool receiver_driven() const override { return true; }
  // Between ranks: one message below the switch (none for no records),
  // else the ring's batches.
  uint64_t batches(int from, int to, size_t count) const override {
    if (place_.rank_of(from) == place_.rank_of(to)) return count > 0;  // read in place
    if (count * item_ < small_) return count > 0;
    uint64_t b = 0;
    for (int t = 0; t < lanes_; ++t) {
      const auto [lo, hi] = lane_share(count, t);
      b += std::max<uint64_t>(1, (hi - lo + batch_records_ - 1) / batch_records_);
    }
    return b;
  }

  void exchange(Mailboxes& mb, int d, int parity) override {
    const int me = d % place_.local;
    for (int from = 0; from < D_; ++from) {
      if (from == d) continue;
      Received& in = slot(parity, me, from);
      for (auto& l : in.lanes) l.clear();
      std::fill(in.ended.begin(), in.ended.end(), char(0));
      if (place_.rank_of(from) == place_.rank) {  // same rank: read the sender's buffer, complete at the status meeting
        const Slot& s = mb.outgoing(from, parity, d);
        in.small.assign(s.data, s.data + s.count * item_);
        in.state.store(kHeld, std::memory_order_relaxed);
      } else {
        in.small.clear();
        in.state.store(kUnread, std::memory_order_relaxed);
      }
    }
    // Each remote peer's notice, after the message it announces (the
    // send buffer is the mailbox slot, untouched until the next superstep).
    std::vector<MPI_Request>& sent = sends_[size_t(me)];
    sent.clear();
    std::vector<int> streamed;
    for (int to = 0; to < D_; ++to)
      if (place_.rank_of(to) != place_.rank) {
        const Slot& s = mb.outgoing(d, parity, to);
        const size_t bytes = s.count * item_;
        Notice what = kRing;
        if (bytes == 0) {
          what = kNothing;
        } else if (bytes < small_) {
          what = kMessage;
          check_mpi(
              MPI_Isend(s.data, int(bytes), MPI_BYTE, place_.rank_of(to), tag(d, to), comm_, &sent.emplace_back()),
              "MPI_Isend");
          count_op(MpiOp::kSend, place_.rank_of(to));
        }
        notify(d, to, what);
        if (what == kRing) streamed.push_back(to);
      }
    // Every lane streams its share of each large peer's records, then reads
    // its lane of every ring until each sender's end flag.
    auto lane = [&](int t) {
      for (int to : streamed) {
        const Slot& s = mb.outgoing(d, parity, to);
        const auto [lo, hi] = lane_share(s.count, t);
        send(d, to, parity, t, s.data + lo * item_, hi - lo);
      }
      for (PollBackoff wait; !drain(d, parity, t); wait.pause()) poke_progress();
    };
    if (lanes_ == 1) {
      lane(0);
    } else {
      std::vector<std::string> errors(static_cast<size_t>(lanes_));
#pragma omp parallel num_threads(lanes_)
      {
        const int t = omp_get_thread_num();
        try {
          lane(t);
        } catch (const std::exception& e) {  // an MPI error: reported once the team is done
          errors[size_t(t)] = e.what();
        }
      }
      for (const std::string& e : errors)
        if (!e.empty()) throw Error(e);
    }
    check_mpi(MPI_Waitall(int(sent.size()), sent.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (int from = 0; from < D_; ++from) {
      if (from == d) continue;
      Received& in = slot(parity, me, from);
      if (in.state.load(std::memory_order_acquire) == kStreamed) {
        in.small.clear();
        for (const auto& l : in.lanes) in.small.insert(in.small.end(), l.begin(), l.end());
      }
      Slot& r = mb.recv(parity, d, from);
      r.storage = r.data = in.small.data();
      r.capacity = in.small.size();
      r.count = in.small.size() / item_;
    }
  }

 private:
  struct Sent {
    uint64_t written = 0, tail = 0;  // bytes put into the ring; bytes the receiver said it consumed
  };
  struct Recv {
    uint64_t consumed = 0, published = 0;
  };
  enum : int { kUnread, kHeld, kStreamed };  // a peer's notice: not read yet; the records are held; they stream
  struct Received {
    std::vector<std::byte> small;               // the records (small or same rank), then every lane's together
    std::vector<std::vector<std::byte>> lanes;  // what each lane read from its ring
    std::vector<char> ended;                    // per lane: the sender's end flag has been read
    std::atomic<int> state{kUnread};            // lane 0 reads the notice; the other lanes wait for it
  };

  // Agrees on the lanes every pair has (a receiver must know how many end
  // flags to wait for): the most any rank asks for.
  static int agreed_lanes(int mine) {
    int lanes = std::max(1, mine);
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &lanes, 1, MPI_INT, MPI_MAX, mpi::ranks_comm()), "MPI_Allreduce");
    return lanes;
  }
  // Lane t's records of `count`: [first, last).
  std::pair<size_t, size_t> lane_share(size_t count, int t) const {
    return {count * size_t(t) / size_t(lanes_), count * size_t(t + 1) / size_t(lanes_)};
  }

  int tag(int sender, int receiver) const { return sender * D_ + receiver; }
  size_t control_words() const { return 2 * words_ + pairs_; }
  // The notice word of the pair (sender, local receiver): [local receiver][sender].
  size_t notice_index(int receiver_local, int sender) const {
    return 2 * words_ + size_t(receiver_local) * size_t(D_) + size_t(sender);
  }

  Received& slot(int parity, int local, int peer) {
    return slots_[(size_t(parity) * size_t(place_.local) + size_t(local)) * size_t(D_) + size_t(peer)];
  }
  // A ring's (or its words') index: [local device][peer][lane].
  size_t ring(int local, int peer, int lane) const {
    return (size_t(local) * size_t(D_) + size_t(peer)) * size_t(lanes_) + size_t(lane);
  }
  uint64_t* head_word(int receiver_local, int sender, int lane) {
    return static_cast<uint64_t*>(base_) + ring(receiver_local, sender, lane);
  }
  uint64_t* tail_word(int sender_local, int receiver, int lane) {
    return static_cast<uint64_t*>(base_) + words_ + ring(sender_local, receiver, lane);
  }
  MPI_Aint head_disp(int receiver, int sender, int lane) const {
    return MPI_Aint(ring(receiver % place_.local, sender, lane) * sizeof(uint64_t));
  }
  MPI_Aint tail_disp(int sender, int receiver, int lane) const {
    return MPI_Aint((words_ + ring(sender % place_.local, receiver, lane)) * sizeof(uint64_t));
  }
  MPI_Aint ring_disp(int receiver, int sender, int lane) const {
    return MPI_Aint(control_words() * sizeof(uint64_t) + ring(receiver % place_.local, sender, lane) * ring_);
  }
  static uint64_t load(const uint64_t* w) {
    return std::atomic_ref<const uint64_t>(*w).load(std::memory_order_acquire);
  }

  // Puts `bytes` at ring offset `at` of `rank`'s ring `disp`, wrapping.
  void put_ring(const std::byte* src, size_t bytes, uint64_t at, int rank, MPI_Aint disp) {
    const size_t pos = size_t(at % ring_), first = std::min(bytes, ring_ - pos);
    ops_->put(rank, disp + MPI_Aint(pos), src, first);
    if (first < bytes) ops_->put(rank, disp, src + first, bytes - first);
  }

  // Lane t's share of device d's records for `to`, in batches; always at
  // least the end batch.
  void send(int d, int to, int parity, int t, const std::byte* data, size_t count) {
    Sent& s = send_[ring(d % place_.local, to, t)];
    const int rank = place_.rank_of(to);
    size_t i = 0;
    do {
      const size_t n = std::min(batch_records_, count - i);
      const bool last = i + n == count;
      const size_t payload = n * item_, bytes = kHeader + round8(payload);
      for (PollBackoff wait; s.written + bytes - s.tail > ring_;) {  // looks full: read the tail the receiver published
        MPI_Win_sync(win_);
        s.tail = load(tail_word(d % place_.local, to, t));
        if (s.written + bytes - s.tail > ring_) {
          drain(d, parity, t);
          poke_progress();
          wait.pause();
        }
      }
      const uint64_t header = uint64_t(n) | (last ? kEnd : 0);
      put_ring(reinterpret_cast<const std::byte*>(&header), kHeader, s.written, rank, ring_disp(to, d, t));
      if (payload) put_ring(data + i * item_, payload, s.written + kHeader, rank, ring_disp(to, d, t));
      ops_->flush(rank);  // the batch lands before its head
      s.written += bytes;
      // Words others poll are written by an accumulate (MPI_REPLACE): MPI
      // makes only accumulate-class operations atomic with each other.
      ops_->replace(rank, head_disp(to, d, t), s.written);
      ops_->flush(rank);
      i += n;
    } while (i < count);
  }

  // Reads what lane t of device d's rings holds, up to each sender's end
  // flag; true when every sender's end flag in the lane has been read.
  // Lane 0 also reads the peers' notices (and messages).
  bool drain(int d, int parity, int t) {
    const int me = d % place_.local;
    MPI_Win_sync(win_);
    bool all = true;
    for (int from = 0; from < D_; ++from) {
      if (from == d) continue;
      Received& in = slot(parity, me, from);
      int state = in.state.load(std::memory_order_acquire);
      if (state == kUnread && t == 0 && read_notice(d, from, in)) state = in.state.load(std::memory_order_relaxed);
      if (state == kHeld) continue;
      if (state == kUnread) {
        all = false;
        continue;
      }
      if (in.ended[size_t(t)]) continue;
      Recv& r = recv_[ring(me, from, t)];
      const uint64_t head = load(head_word(me, from, t));
      const std::byte* ring_at = static_cast<std::byte*>(base_) + ring_disp(d, from, t);
      std::vector<std::byte>& got = in.lanes[size_t(t)];
      bool ended = false;
      while (r.consumed < head && !ended) {
        uint64_t header;
        std::memcpy(&header, ring_at + r.consumed % ring_, kHeader);
        const size_t n = size_t(header & ~kEnd), payload = n * item_;
        const size_t pos = size_t((r.consumed + kHeader) % ring_), first = std::min(payload, ring_ - pos);
        got.insert(got.end(), ring_at + pos, ring_at + pos + first);
        got.insert(got.end(), ring_at, ring_at + (payload - first));
        r.consumed += kHeader + round8(payload);
        ended = (header & kEnd) != 0;
        if (r.consumed - r.published >= ring_ / 2 || ended) publish(d, from, t, r);
      }
      in.ended[size_t(t)] = ended;
      all &= ended;
    }
    return all;
  }

  // Tells `to` what this exchange of the pair (d, to) holds: one word,
  // written by an accumulate (MPI makes only accumulate-class operations
  // atomic with each other), flushed so that the receiver sees it.
  void notify(int d, int to, Notice what) {
    uint64_t& n = sent_notices_[size_t(d % place_.local) * size_t(D_) + size_t(to)];
    n = (n / 4 + 1) * 4 + what;
    const int rank = place_.rank_of(to);
    ops_->replace(rank, MPI_Aint(notice_index(to % place_.local, d) * sizeof(uint64_t)), n);
    ops_->flush(rank);
  }

  // Whether `from`'s notice for this exchange has come: then its records
  // are read (none, or a message: matched by probe, received at its own
  // size), or the ring holds them (kStreamed). A sender posts its message
  // before its notice, so a notice of one means the message is on its way.
  bool read_notice(int d, int from, Received& in) {
    const int me = d % place_.local;
    uint64_t& expected = read_notices_[size_t(me) * size_t(D_) + size_t(from)];
    const uint64_t notice = load(static_cast<const uint64_t*>(base_) + notice_index(me, from));
    if (notice / 4 != expected / 4 + 1) return false;
    expected = notice;  // in.small is empty: exchange() cleared it
    if (notice % 4 == kRing) {
      in.state.store(kStreamed, std::memory_order_release);
      return true;
    }
    if (notice % 4 == kMessage) {
      int flag = 0, bytes = 0;
      MPI_Message msg;
      MPI_Status status;
      for (;;) {
        check_mpi(MPI_Improbe(place_.rank_of(from), tag(from, d), comm_, &flag, &msg, &status), "MPI_Improbe");
        if (flag) break;
      }
      check_mpi(MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count");
      in.small.resize(size_t(bytes));
      check_mpi(MPI_Mrecv(in.small.data(), bytes, MPI_BYTE, &msg, MPI_STATUS_IGNORE), "MPI_Mrecv");
      count_op(MpiOp::kRecv, place_.rank_of(from));
    }
    in.state.store(kHeld, std::memory_order_release);
    return true;
  }

  // Tells `from` how far d has read its ring in lane t.
  void publish(int d, int from, int t, Recv& r) {
    r.published = r.consumed;
    const int rank = place_.rank_of(from);
    ops_->replace(rank, tail_disp(from, d, t), r.published);
    ops_->flush(rank);
  }

  const ClusterPlace place_;
  const int D_, lanes_;
  const size_t item_, ring_, batch_records_, words_, pairs_;
  std::vector<Sent> send_;       // [local sender][receiver][lane]
  std::vector<Recv> recv_;       // [local receiver][sender][lane]
  std::vector<Received> slots_;  // [parity][local receiver][sender]
  const size_t small_;
  std::vector<uint64_t> sent_notices_;           // [local sender][receiver]: the last notice written
  std::vector<uint64_t> read_notices_;           // [local receiver][sender]: the last notice read
  std::vector<std::vector<MPI_Request>> sends_;  // per local sender: this exchange's messages
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
  void* base_ = nullptr;
  std::unique_ptr<WindowOps> ops_;
};

}  // namespace

std::unique_ptr<Transport> make_ring_transport(const ClusterPlace& place, size_t item_bytes, size_t ring_bytes,
                                               size_t batch_bytes, size_t small_bytes, int lanes) {
  return std::make_unique<RingTransport>(place, item_bytes, ring_bytes, batch_bytes, small_bytes, lanes);
}

}  // namespace chatty::mpi
