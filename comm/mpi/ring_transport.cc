// Records streamed through rings in the receivers' memory (seed 000
// section 4): for every (sender, receiver) pair of devices on different
// ranks, a ring of `ring_bytes` in the receiver's window with a head word
// the sender writes, and a tail word in the sender's window the receiver
// writes (one writer per word, plain puts: no atomics). A sender cuts its
// records into batches of at most `batch_bytes`, each an 8-byte header
// (record count, end-of-superstep flag) and the records; it puts a batch,
// flushes (MPI does not order the bytes of puts), then puts the new head.
// It re-reads the tail only when the ring looks full, and a receiver
// publishes its tail every half ring, so a ring of any size carries any
// number of records: memory per rank is rings, not a slot per vertex.
// While a sender waits for room it drains its own rings, and a receiver
// stops at each sender's end flag, so no device waits on one that waits
// on it. Devices of one rank read each other's send buffers directly.
//
// Small messages take another path (seed 003's switch: two-sided below a
// size, one-sided above): a pair's records for a superstep under
// `small_bytes` travel as one two-sided message (a header and the
// records, eagerly buffered by MPI), which spares the ring's flushes and
// head puts; larger ones send a header-only message that says "in the
// ring", then the batches. Every pair sends exactly one message per
// superstep, so the receiver knows which path to wait on.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "comm/mpi/mpi_util.h"
#include "comm/mpi/transports.h"

namespace chatty::mpi {
namespace {

constexpr uint64_t kEnd = uint64_t(1) << 63;     // header flag: the sender's last batch of the superstep
constexpr uint64_t kInRing = uint64_t(1) << 62;  // message header flag: the records follow through the ring
constexpr size_t kHeader = sizeof(uint64_t);

size_t round8(size_t b) { return (b + 7) & ~size_t(7); }

class RingTransport : public Transport {
 public:
  RingTransport(const ClusterPlace& place, size_t item_bytes, size_t ring_bytes, size_t batch_bytes, size_t small_bytes)
      : place_(place),
        D_(place.devices()),
        item_(item_bytes),
        ring_(std::max<size_t>(round8(ring_bytes), 4 * (kHeader + round8(item_bytes)))),
        batch_records_(std::max<size_t>(1, std::min(batch_bytes, ring_ / 2 - kHeader) / item_bytes)),
        words_(size_t(place.local) * size_t(D_)),
        send_(words_),
        recv_(words_),
        slots_(size_t(2) * words_),
        small_(small_bytes),
        outbox_(words_),
        inbox_(size_t(place.local)),
        sends_(size_t(place.local)) {
    check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "MPI_Comm_dup");  // its tags are this transport's alone
    // Window: head words [local receiver][sender], tail words [local
    // sender][receiver], then the rings [local receiver][sender].
    const MPI_Aint bytes = MPI_Aint(2 * words_ * sizeof(uint64_t) + words_ * ring_);
    check_mpi(MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base_, &win_), "MPI_Win_allocate");
    std::memset(base_, 0, 2 * words_ * sizeof(uint64_t));
    check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_), "MPI_Win_lock_all");
    MPI_Barrier(MPI_COMM_WORLD);  // every window zeroed before any put
  }
  ~RingTransport() override {
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
    MPI_Comm_free(&comm_);
  }

  const char* name() const override { return "mpi_ring"; }
  bool can_connect(int, int) const override { return true; }
  bool receiver_driven() const override { return true; }
  // Between ranks: one message, then (above the switch) the ring's batches.
  uint64_t batches(int from, int to, size_t count) const override {
    if (place_.rank_of(from) == place_.rank_of(to)) return count > 0;  // read in place
    if (count * item_ < small_) return 1;
    return 1 + std::max<uint64_t>(1, (count + batch_records_ - 1) / batch_records_);
  }

  void exchange(Mailboxes& mb, int d, int parity) override {
    const int me = d % place_.local;
    for (int from = 0; from < D_; ++from) {
      if (from == d) continue;
      Received& in = slots_[index(parity, me, from)];
      in.bytes.clear();
      in.done = place_.rank_of(from) == place_.rank;
      in.in_ring = false;
      if (in.done) {  // same rank: read the sender's buffer, complete at the status meeting
        const Slot& s = mb.outgoing(from, parity, d);
        in.bytes.assign(s.data, s.data + s.count * item_);
      }
    }
    std::vector<MPI_Request>& sent = sends_[size_t(me)];
    sent.clear();
    for (int to = 0; to < D_; ++to)
      if (place_.rank_of(to) != place_.rank) {
        const Slot& s = mb.outgoing(d, parity, to);
        const size_t bytes = s.count * item_;
        std::vector<std::byte>& out = outbox_[size_t(me) * size_t(D_) + size_t(to)];
        const bool small = bytes < small_;
        const uint64_t header = small ? uint64_t(s.count) : kInRing;
        if (out.size() < kHeader + (small ? bytes : 0)) out.resize(kHeader + (small ? bytes : 0));
        std::memcpy(out.data(), &header, kHeader);
        if (small && bytes) std::memcpy(out.data() + kHeader, s.data, bytes);
        check_mpi(MPI_Isend(out.data(), int(kHeader + (small ? bytes : 0)), MPI_BYTE, place_.rank_of(to), tag(d, to),
                            comm_, &sent.emplace_back()),
                  "MPI_Isend");
        if (!small) send(d, to, parity, s.data, s.count);
      }
    check_mpi(MPI_Win_flush_all(win_), "MPI_Win_flush_all");
    while (!drain(d, parity)) progress();
    check_mpi(MPI_Waitall(int(sent.size()), sent.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (int from = 0; from < D_; ++from) {
      if (from == d) continue;
      Received& in = slots_[index(parity, me, from)];
      Slot& r = mb.recv(parity, d, from);
      r.storage = r.data = in.bytes.data();
      r.capacity = in.bytes.size();
      r.count = in.bytes.size() / item_;
    }
  }

 private:
  struct Sent {
    uint64_t written = 0, tail = 0;  // bytes put into the ring; bytes the receiver said it consumed
  };
  struct Recv {
    uint64_t consumed = 0, published = 0;
  };
  struct Received {
    std::vector<std::byte> bytes;
    bool done = false, in_ring = false;  // all read; the sender's message said "in the ring"
  };

  int tag(int sender, int receiver) const { return sender * D_ + receiver; }

  size_t index(int parity, int local, int peer) const {
    return (size_t(parity) * size_t(place_.local) + size_t(local)) * size_t(D_) + size_t(peer);
  }
  uint64_t* head_word(int receiver_local, int sender) {
    return static_cast<uint64_t*>(base_) + size_t(receiver_local) * size_t(D_) + size_t(sender);
  }
  uint64_t* tail_word(int sender_local, int receiver) {
    return static_cast<uint64_t*>(base_) + words_ + size_t(sender_local) * size_t(D_) + size_t(receiver);
  }
  MPI_Aint head_disp(int receiver, int sender) const {
    return MPI_Aint((size_t(receiver % place_.local) * size_t(D_) + size_t(sender)) * sizeof(uint64_t));
  }
  MPI_Aint tail_disp(int sender, int receiver) const {
    return MPI_Aint((words_ + size_t(sender % place_.local) * size_t(D_) + size_t(receiver)) * sizeof(uint64_t));
  }
  MPI_Aint ring_disp(int receiver, int sender) const {
    return MPI_Aint(2 * words_ * sizeof(uint64_t) +
                    (size_t(receiver % place_.local) * size_t(D_) + size_t(sender)) * ring_);
  }
  static uint64_t load(const uint64_t* w) {
    return std::atomic_ref<const uint64_t>(*w).load(std::memory_order_acquire);
  }

  // Puts `bytes` at ring offset `at` of `rank`'s ring `disp`, wrapping.
  void put_ring(const std::byte* src, size_t bytes, uint64_t at, int rank, MPI_Aint disp) {
    const size_t pos = size_t(at % ring_), first = std::min(bytes, ring_ - pos);
    check_mpi(MPI_Put(src, int(first), MPI_BYTE, rank, disp + MPI_Aint(pos), int(first), MPI_BYTE, win_), "MPI_Put");
    if (first < bytes)
      check_mpi(MPI_Put(src + first, int(bytes - first), MPI_BYTE, rank, disp, int(bytes - first), MPI_BYTE, win_),
                "MPI_Put");
  }

  // Device d's records for `to`, in batches; always at least the end batch.
  void send(int d, int to, int parity, const std::byte* data, size_t count) {
    Sent& s = send_[size_t(d % place_.local) * size_t(D_) + size_t(to)];
    const int rank = place_.rank_of(to);
    size_t i = 0;
    do {
      const size_t n = std::min(batch_records_, count - i);
      const bool last = i + n == count;
      const size_t payload = n * item_, bytes = kHeader + round8(payload);
      while (s.written + bytes - s.tail > ring_) {  // looks full: read the tail the receiver published
        MPI_Win_sync(win_);
        s.tail = load(tail_word(d % place_.local, to));
        if (s.written + bytes - s.tail > ring_) {
          drain(d, parity);
          progress();
        }
      }
      const uint64_t header = uint64_t(n) | (last ? kEnd : 0);
      put_ring(reinterpret_cast<const std::byte*>(&header), kHeader, s.written, rank, ring_disp(to, d));
      if (payload) put_ring(data + i * item_, payload, s.written + kHeader, rank, ring_disp(to, d));
      check_mpi(MPI_Win_flush(rank, win_), "MPI_Win_flush");  // the batch lands before its head
      s.written += bytes;
      check_mpi(MPI_Put(&s.written, 1, MPI_UINT64_T, rank, head_disp(to, d), 1, MPI_UINT64_T, win_), "MPI_Put");
      check_mpi(MPI_Win_flush(rank, win_), "MPI_Win_flush");  // s.written is read by the put until here
      i += n;
    } while (i < count);
  }

  // Reads what device d's rings hold, up to each sender's end flag; true
  // when every sender's end flag has been read.
  bool drain(int d, int parity) {
    const int me = d % place_.local;
    MPI_Win_sync(win_);
    bool all = true;
    for (int from = 0; from < D_; ++from) {
      if (from == d) continue;
      Received& in = slots_[index(parity, me, from)];
      if (in.done) continue;
      if (!in.in_ring && !read_message(d, from, in)) {
        all = false;
        continue;
      }
      if (in.done) continue;
      Recv& r = recv_[size_t(me) * size_t(D_) + size_t(from)];
      const uint64_t head = load(head_word(me, from));
      const std::byte* ring = static_cast<std::byte*>(base_) + ring_disp(d, from);
      while (r.consumed < head && !in.done) {
        uint64_t header;
        std::memcpy(&header, ring + r.consumed % ring_, kHeader);
        const size_t n = size_t(header & ~kEnd), payload = n * item_;
        const size_t pos = size_t((r.consumed + kHeader) % ring_), first = std::min(payload, ring_ - pos);
        in.bytes.insert(in.bytes.end(), ring + pos, ring + pos + first);
        in.bytes.insert(in.bytes.end(), ring, ring + (payload - first));
        r.consumed += kHeader + round8(payload);
        in.done = (header & kEnd) != 0;
        if (r.consumed - r.published >= ring_ / 2 || in.done) publish(d, from, r);
      }
      all &= in.done;
    }
    return all;
  }

  // Whether `from`'s message for this superstep has come: then its records
  // are read (small), or the ring holds them (in.in_ring).
  // The message is matched by probe, then received at its own size.
  bool read_message(int d, int from, Received& in) {
    int flag = 0, bytes = 0;
    MPI_Message msg;
    MPI_Status status;
    check_mpi(MPI_Improbe(place_.rank_of(from), tag(from, d), comm_, &flag, &msg, &status), "MPI_Improbe");
    if (!flag) return false;
    check_mpi(MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count");
    std::vector<std::byte>& box = inbox_[size_t(d % place_.local)];
    box.resize(std::max<size_t>(size_t(bytes), kHeader));
    check_mpi(MPI_Mrecv(box.data(), bytes, MPI_BYTE, &msg, MPI_STATUS_IGNORE), "MPI_Mrecv");
    uint64_t header;
    std::memcpy(&header, box.data(), kHeader);
    if (header & kInRing) {
      in.in_ring = true;
    } else {
      in.bytes.assign(box.data() + kHeader, box.data() + kHeader + size_t(header) * item_);
      in.done = true;
    }
    return true;
  }

  // Tells `from` how far d has read its ring.
  void publish(int d, int from, Recv& r) {
    r.published = r.consumed;
    const int rank = place_.rank_of(from);
    check_mpi(MPI_Put(&r.published, 1, MPI_UINT64_T, rank, tail_disp(from, d), 1, MPI_UINT64_T, win_), "MPI_Put");
    check_mpi(MPI_Win_flush(rank, win_), "MPI_Win_flush");
  }

  // Lets MPI move what others put (MPICH and osc ucx progress only inside calls).
  static void progress() {
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  }

  const ClusterPlace place_;
  const int D_;
  const size_t item_, ring_, batch_records_, words_;
  std::vector<Sent> send_;       // [local sender][receiver]
  std::vector<Recv> recv_;       // [local receiver][sender]
  std::vector<Received> slots_;  // [parity][local receiver][sender]
  const size_t small_;
  std::vector<std::vector<std::byte>> outbox_;   // [local sender][receiver]: a small message and its header
  std::vector<std::vector<std::byte>> inbox_;    // per local receiver: the message being read
  std::vector<std::vector<MPI_Request>> sends_;  // per local sender: this exchange's messages
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
  void* base_ = nullptr;
};

}  // namespace

std::unique_ptr<Transport> make_ring_transport(const ClusterPlace& place, size_t item_bytes, size_t ring_bytes,
                                               size_t batch_bytes, size_t small_bytes) {
  return std::make_unique<RingTransport>(place, item_bytes, ring_bytes, batch_bytes, small_bytes);
}

}  // namespace chatty::mpi
