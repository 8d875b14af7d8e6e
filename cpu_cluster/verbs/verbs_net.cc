// The cluster seam over rdma-core verbs: one reliable-connected queue pair
// per pair of ranks (and one to itself, so that a rank's reads and atomics
// on its own words go through the NIC like everyone else's), connected
// with the addresses the ranks all-gather over MPI. Worklist words are a
// registered region read, written and updated by RDMA READ, WRITE,
// compare-and-swap and fetch-and-add; the barrier and the status
// all-gather are cpu_cluster/one_sided_collective.h's protocol over RDMA
// WRITE and atomics; records go as the MPI put transport's do. Nothing of
// a superstep is a collective or a two-sided message. Built where
// libibverbs is; not yet run on an RDMA device.
#include "cpu_cluster/verbs/verbs_net.h"

#include <infiniband/verbs.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <vector>

#include "cpu_cluster/mpi/mpi_util.h"
#include "cpu_cluster/mpi/rank_watchdog.h"
#include "cpu_cluster/one_sided_collective.h"
#include "cpu_cluster/poll_backoff.h"
#include "cpu_cluster/put_slots.h"

namespace chatty::verbs {
namespace {

struct Endpoint {  // what a rank tells every other to connect its queue pair
  uint32_t qpn, psn;
  uint16_t lid;
  uint8_t gid[16];
};

struct Region {  // a registered region, as peers address it
  uint64_t addr;
  uint32_t rkey;
};

// The device, its protection domain and completion queue, a queue pair per
// rank, and the registered regions. Operations from the rank's device
// threads are serialised: one outstanding work request at a time.
class Nic {
 public:
  explicit Nic(int ranks) : ranks_(ranks) {
    int count = 0;
    ibv_device** list = ibv_get_device_list(&count);
    CHATTY_CHECK(list && count > 0, "no RDMA device (ibv_get_device_list)");
    ctx_ = ibv_open_device(list[0]);
    ibv_free_device_list(list);
    CHATTY_CHECK(ctx_, "ibv_open_device failed");
    pd_ = ibv_alloc_pd(ctx_);
    cq_ = ibv_create_cq(ctx_, 256, nullptr, nullptr, 0);
    CHATTY_CHECK(pd_ && cq_, "ibv_alloc_pd or ibv_create_cq failed");
    ibv_port_attr port{};
    CHATTY_CHECK(ibv_query_port(ctx_, 1, &port) == 0, "ibv_query_port failed");
    ibv_gid gid{};
    ibv_query_gid(ctx_, 1, 0, &gid);
    std::vector<Endpoint> mine(static_cast<size_t>(ranks)), theirs(static_cast<size_t>(ranks) * ranks);
    for (int r = 0; r < ranks; ++r) {
      ibv_qp_init_attr init{};
      init.send_cq = init.recv_cq = cq_;
      init.qp_type = IBV_QPT_RC;
      init.cap.max_send_wr = 64, init.cap.max_recv_wr = 1, init.cap.max_send_sge = 1, init.cap.max_recv_sge = 1;
      init.cap.max_inline_data = 64;
      ibv_qp* qp = ibv_create_qp(pd_, &init);
      CHATTY_CHECK(qp, "ibv_create_qp failed");
      qps_.push_back(qp);
      Endpoint& e = mine[size_t(r)];
      e.qpn = qp->qp_num, e.psn = 0x1000 + uint32_t(r), e.lid = port.lid;
      std::memcpy(e.gid, gid.raw, 16);
    }
    // theirs[r * ranks + me]: rank r's queue pair for this rank.
    MPI_Allgather(mine.data(), int(sizeof(Endpoint)) * ranks, MPI_BYTE, theirs.data(), int(sizeof(Endpoint)) * ranks,
                  MPI_BYTE, mpi::ranks_comm());
    int me = 0;
    MPI_Comm_rank(mpi::ranks_comm(), &me);
    for (int r = 0; r < ranks; ++r) connect(qps_[size_t(r)], mine[size_t(r)], theirs[size_t(r * ranks + me)], port);
  }
  ~Nic() {
    for (ibv_mr* mr : mrs_) ibv_dereg_mr(mr);
    for (ibv_qp* qp : qps_) ibv_destroy_qp(qp);
    if (cq_) ibv_destroy_cq(cq_);
    if (pd_) ibv_dealloc_pd(pd_);
    if (ctx_) ibv_close_device(ctx_);
  }
  Nic(const Nic&) = delete;
  Nic& operator=(const Nic&) = delete;

  // Registers [p, p + bytes) for peers' reads, writes and atomics; returns
  // every rank's address and key of its region (a collective).
  std::vector<Region> share(void* p, size_t bytes, uint32_t* lkey) {
    const int access =
        IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
    ibv_mr* mr = ibv_reg_mr(pd_, p, bytes, access);
    CHATTY_CHECK(mr, "ibv_reg_mr failed");
    mrs_.push_back(mr);
    *lkey = mr->lkey;
    const Region mine{reinterpret_cast<uint64_t>(p), mr->rkey};
    std::vector<Region> all(static_cast<size_t>(ranks_));
    MPI_Allgather(&mine, int(sizeof mine), MPI_BYTE, all.data(), int(sizeof mine), MPI_BYTE, mpi::ranks_comm());
    return all;
  }

  // Posts one signalled work request to rank r's queue pair and waits for
  // its completion.
  void run(int r, ibv_send_wr& wr) {
    std::lock_guard<std::mutex> hold(lock_);
    wr.send_flags |= IBV_SEND_SIGNALED;
    ibv_send_wr* bad = nullptr;
    CHATTY_CHECK(ibv_post_send(qps_[size_t(r)], &wr, &bad) == 0, "ibv_post_send failed");
    ibv_wc wc{};
    int got = 0;
    while ((got = ibv_poll_cq(cq_, 1, &wc)) == 0) {
    }
    CHATTY_CHECK(got > 0 && wc.status == IBV_WC_SUCCESS,
                 std::string("RDMA work request failed: ") + ibv_wc_status_str(wc.status));
  }

 private:
  static void connect(ibv_qp* qp, const Endpoint& self, const Endpoint& peer, const ibv_port_attr& port) {
    ibv_qp_attr a{};
    a.qp_state = IBV_QPS_INIT, a.port_num = 1, a.pkey_index = 0;
    a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
    CHATTY_CHECK(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) == 0,
                 "queue pair to INIT failed");
    a = ibv_qp_attr{};
    a.qp_state = IBV_QPS_RTR, a.path_mtu = port.active_mtu, a.dest_qp_num = peer.qpn, a.rq_psn = peer.psn;
    a.max_dest_rd_atomic = 1, a.min_rnr_timer = 12;
    a.ah_attr.dlid = peer.lid, a.ah_attr.port_num = 1;
    if (port.link_layer == IBV_LINK_LAYER_ETHERNET) {  // RoCE routes by GID
      a.ah_attr.is_global = 1;
      std::memcpy(a.ah_attr.grh.dgid.raw, peer.gid, 16);
      a.ah_attr.grh.hop_limit = 1;
    }
    CHATTY_CHECK(ibv_modify_qp(qp, &a,
                               IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                                   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER) == 0,
                 "queue pair to RTR failed");
    a = ibv_qp_attr{};
    a.qp_state = IBV_QPS_RTS, a.timeout = 14, a.retry_cnt = 7, a.rnr_retry = 7, a.sq_psn = self.psn;
    a.max_rd_atomic = 1;
    CHATTY_CHECK(ibv_modify_qp(qp, &a,
                               IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                                   IBV_QP_MAX_QP_RD_ATOMIC) == 0,
                 "queue pair to RTS failed");
  }

  const int ranks_;
  ibv_context* ctx_ = nullptr;
  ibv_pd* pd_ = nullptr;
  ibv_cq* cq_ = nullptr;
  std::vector<ibv_qp*> qps_;
  std::vector<ibv_mr*> mrs_;
  std::mutex lock_;
};

// The fabric's words, the collectives' words (cpu_cluster/one_sided_collective.h)
// and the staging of this rank's status records lie in one registered
// region; every access to a word goes through the NIC, even to this
// rank's own words, as a NIC's atomics are atomic only among themselves.
class VerbsFabric : public Fabric {
 public:
  static constexpr int kWordsPerDevice = 256;
  static constexpr size_t kRecordBytes = 256;

  explicit VerbsFabric(const ClusterPlace& place)
      : place_(place),
        nic_(place.ranks),
        meeting_(place.local),
        collective_(place.rank, place.ranks, kRecordBytes * size_t(place.local), first_collective_word()),
        stage_word_(first_collective_word() +
                    OneSidedCollective::words(place.ranks, kRecordBytes * size_t(place.local))),
        scratch_word_(stage_word_ + kRecordBytes * size_t(place.local) / sizeof(uint64_t)),
        words_(scratch_word_ + 1, 0) {
    regions_ = nic_.share(words_.data(), words_.size() * sizeof(uint64_t), &lkey_);
    MPI_Barrier(mpi::ranks_comm());  // every region registered and zero before anyone reaches into it
  }

  int devices() const override { return place_.devices(); }
  bool shares_memory(int a, int b) const override { return place_.rank_of(a) == place_.rank_of(b); }
  void barrier(int d) override {
    meeting_.meet(d, [&] { collective_.run(*this, nullptr, 0, nullptr); });
  }
  void all_gather(int d, const void* mine, size_t bytes, void* all) override {
    CHATTY_CHECK(bytes <= kRecordBytes, "status record too large for the fabric (internal error)");
    std::byte* stage = reinterpret_cast<std::byte*>(words_.data() + stage_word_);
    std::memcpy(stage + size_t(d % place_.local) * bytes, mine, bytes);
    meeting_.meet(d, [&] {
      mpi::note_rank_phase(mpi::RankPhase::kRunning, ++supersteps_);
      gathered_.resize(bytes * size_t(devices()));
      collective_.run(*this, stage, bytes * size_t(place_.local), gathered_.data());
    });
    std::memcpy(all, gathered_.data(), bytes * size_t(devices()));
  }
  int reserve_words(int count) override {
    const int first = reserved_;
    reserved_ += count;
    CHATTY_CHECK(reserved_ <= kWordsPerDevice, "the verbs fabric's region is out of words (internal error)");
    return first;
  }
  uint64_t load(int owner, int w) override { return op(owner, w, IBV_WR_RDMA_READ, 0, 0); }
  void store(int owner, int w, uint64_t value) override { op(owner, w, IBV_WR_RDMA_WRITE, value, 0); }
  bool compare_exchange(int owner, int w, uint64_t& expected, uint64_t desired) override {
    const uint64_t seen = op(owner, w, IBV_WR_ATOMIC_CMP_AND_SWP, expected, desired);
    const bool won = seen == expected;
    expected = seen;
    return won;
  }
  uint64_t fetch_add(int owner, int w, uint64_t add) override {
    return op(owner, w, IBV_WR_ATOMIC_FETCH_AND_ADD, add, 0);
  }

  // The collectives' wire (CollectiveWire). Each work request completes
  // before the next is posted, so a put has landed when it returns.
  void put(int rank, size_t word, const void* from, size_t bytes) {
    ibv_sge sge{reinterpret_cast<uint64_t>(from), uint32_t(bytes), lkey_};
    ibv_send_wr wr{};
    wr.opcode = IBV_WR_RDMA_WRITE, wr.sg_list = &sge, wr.num_sge = 1;
    wr.wr.rdma.remote_addr = address(rank, word), wr.wr.rdma.rkey = regions_[size_t(rank)].rkey;
    nic_.run(rank, wr);
  }
  void complete() {}
  // By fetch-and-add of one: every collective raises each peer's word once,
  // so the n-th raise makes it n, and the NIC's atomics never tear.
  void raise(int rank, size_t word, uint64_t) { word_op(rank, word, IBV_WR_ATOMIC_FETCH_AND_ADD, 1, 0); }
  uint64_t read(size_t word) {
    const uint64_t v = word_op(place_.rank, word, IBV_WR_ATOMIC_FETCH_AND_ADD, 0, 0);
    std::atomic_thread_fence(std::memory_order_acquire);
    return v;
  }
  void idle() {}
  const std::byte* view(size_t word) const { return reinterpret_cast<const std::byte*>(words_.data() + word); }

 private:
  size_t first_collective_word() const { return size_t(kWordsPerDevice) * size_t(place_.local); }
  uint64_t address(int rank, size_t word) const { return regions_[size_t(rank)].addr + uint64_t(word) * 8; }
  uint64_t op(int owner, int w, ibv_wr_opcode code, uint64_t a, uint64_t b) {
    return word_op(place_.rank_of(owner), size_t(owner % place_.local) * kWordsPerDevice + size_t(w), code, a, b);
  }
  // One operation on word `word` of `rank`'s region, through the scratch word.
  uint64_t word_op(int rank, size_t word, ibv_wr_opcode code, uint64_t a, uint64_t b) {
    std::lock_guard<std::mutex> hold(scratch_lock_);
    uint64_t& scratch = words_[scratch_word_];
    scratch = code == IBV_WR_RDMA_WRITE ? a : 0;
    ibv_sge sge{reinterpret_cast<uint64_t>(&scratch), 8, lkey_};
    ibv_send_wr wr{};
    wr.opcode = code, wr.sg_list = &sge, wr.num_sge = 1;
    if (code == IBV_WR_RDMA_READ || code == IBV_WR_RDMA_WRITE) {
      wr.wr.rdma.remote_addr = address(rank, word), wr.wr.rdma.rkey = regions_[size_t(rank)].rkey;
    } else {
      wr.wr.atomic.remote_addr = address(rank, word), wr.wr.atomic.rkey = regions_[size_t(rank)].rkey;
      wr.wr.atomic.compare_add = a, wr.wr.atomic.swap = b;
    }
    nic_.run(rank, wr);
    return scratch;
  }

  const ClusterPlace place_;
  Nic nic_;
  mpi::RankMeeting meeting_;
  OneSidedCollective collective_;
  const size_t stage_word_, scratch_word_;  // this rank's status records; the word operations' buffer
  std::vector<uint64_t> words_;
  std::vector<Region> regions_;
  uint32_t lkey_ = 0;
  std::mutex scratch_lock_;
  std::vector<std::byte> gathered_;
  uint64_t supersteps_ = 0;  // status agreements so far, for the watchdog
  int reserved_ = 0;
};

// Records by RDMA WRITE into the slots of cpu_cluster/put_slots.h, as the
// MPI put transport writes them: a sender writes its records into the
// receiver's slot from a registered staging buffer, then the slot's count
// word by compare-and-swap from the word it wrote there last; the receiver
// reads its own count words by fetch-and-add of zero until each bears this
// exchange's number (the NIC's atomics never tear), then views its slots
// in place. No rank meets another: a sender writes a parity's slot again
// two exchanges later, after the status agreement that the receiver joins
// only once it has read it.
class VerbsTransport : public Transport {
 public:
  VerbsTransport(const ClusterPlace& place, size_t slot_records, size_t item_bytes)
      : place_(place),
        nic_(place.ranks),
        at_(place, slot_records, item_bytes),
        stage_stride_((at_.bytes + 7) / 8 * 8 + sizeof(uint64_t)),
        region_(at_.region_bytes()),
        stage_(size_t(place.local) * stage_stride_),
        overflow_(size_t(place.local), 0),
        sent_(size_t(place.local) * size_t(place.devices()), 0),
        in_slot_(2 * size_t(place.local) * size_t(place.devices()), 0),
        read_(size_t(place.local) * size_t(place.devices()), 0) {
    regions_ = nic_.share(region_.data(), region_.size(), &region_key_);
    nic_.share(stage_.data(), stage_.size(), &stage_key_);
    MPI_Barrier(mpi::ranks_comm());  // every region registered and zero before any write
  }

  const char* name() const override { return "verbs_write"; }
  bool can_connect(int, int) const override { return true; }
  bool receiver_driven() const override { return true; }

  void exchange(Mailboxes& mb, int d, int parity) override {
    const int D = place_.devices(), me = d % place_.local;
    char& overflow = overflow_[size_t(me)];
    overflow = 0;
    std::byte* stage = stage_.data() + size_t(me) * stage_stride_;
    std::byte* scratch = stage + stage_stride_ - sizeof(uint64_t);  // an atomic's old value
    for (int to = 0; to < D; ++to) {
      if (to == d) continue;
      const Slot& s = mb.outgoing(d, parity, to);
      uint64_t count = s.count;
      if (count > at_.records) overflow = 1, count = 0;
      const size_t slot = at_.index(parity, to % place_.local, d);
      const int rank = place_.rank_of(to);
      const size_t bytes = count * mb.item_bytes();
      if (bytes) {
        std::memcpy(stage, s.data, bytes);
        write(rank, stage, bytes, at_.data_offset(slot));
      }
      uint64_t& pair = sent_[size_t(me) * size_t(D) + size_t(to)];
      pair = PutSlots::next_word(pair, count);
      uint64_t& before = in_slot_[(size_t(parity) * size_t(place_.local) + size_t(me)) * size_t(D) + size_t(to)];
      const uint64_t seen = atomic(rank, at_.count_offset(slot), IBV_WR_ATOMIC_CMP_AND_SWP, before, pair, scratch);
      CHATTY_CHECK(seen == before, "a cluster slot's count word was not as its sender left it (internal error)");
      before = pair;
    }
    for (int from = 0; from < D; ++from) {
      if (from == d) continue;
      const size_t slot = at_.index(parity, me, from);
      uint64_t& last = read_[size_t(me) * size_t(D) + size_t(from)];
      uint64_t word;
      for (PollBackoff wait; !PutSlots::follows(
               word = atomic(place_.rank, at_.count_offset(slot), IBV_WR_ATOMIC_FETCH_AND_ADD, 0, 0, scratch), last);
           wait.pause()) {
      }
      std::atomic_thread_fence(std::memory_order_acquire);
      last = word;
      Slot& r = mb.recv(parity, d, from);
      r.storage = r.data = region_.data() + at_.data_offset(slot);
      r.capacity = at_.bytes;
      r.count = PutSlots::count_of(word);
    }
    CHATTY_CHECK(!overflow, "a device sent more records than a cluster slot holds (internal error)");
  }

 private:
  void write(int rank, const std::byte* from, size_t bytes, size_t offset) {
    ibv_sge sge{reinterpret_cast<uint64_t>(from), uint32_t(bytes), stage_key_};
    ibv_send_wr wr{};
    wr.opcode = IBV_WR_RDMA_WRITE, wr.sg_list = &sge, wr.num_sge = 1;
    wr.wr.rdma.remote_addr = regions_[size_t(rank)].addr + offset, wr.wr.rdma.rkey = regions_[size_t(rank)].rkey;
    nic_.run(rank, wr);
  }
  // An atomic on the word at `offset` of `rank`'s region; the old value
  // comes back through `scratch`, a word of the staging buffer.
  uint64_t atomic(int rank, size_t offset, ibv_wr_opcode code, uint64_t a, uint64_t b, std::byte* scratch) {
    ibv_sge sge{reinterpret_cast<uint64_t>(scratch), 8, stage_key_};
    ibv_send_wr wr{};
    wr.opcode = code, wr.sg_list = &sge, wr.num_sge = 1;
    wr.wr.atomic.remote_addr = regions_[size_t(rank)].addr + offset, wr.wr.atomic.rkey = regions_[size_t(rank)].rkey;
    wr.wr.atomic.compare_add = a, wr.wr.atomic.swap = b;
    nic_.run(rank, wr);
    uint64_t old = 0;
    std::memcpy(&old, scratch, sizeof old);
    return old;
  }

  const ClusterPlace place_;
  Nic nic_;
  const PutSlots at_;
  const size_t stage_stride_;
  std::vector<std::byte> region_, stage_;
  std::vector<Region> regions_;
  uint32_t region_key_ = 0, stage_key_ = 0;
  std::vector<char> overflow_;
  std::vector<uint64_t> sent_;     // [local sender][receiver]: the count word written last
  std::vector<uint64_t> in_slot_;  // [parity][local sender][receiver]: what that slot's count word holds
  std::vector<uint64_t> read_;     // [local receiver][sender]: the count word read last
};

}  // namespace

std::unique_ptr<Fabric> make_verbs_fabric(const ClusterPlace& place) { return std::make_unique<VerbsFabric>(place); }

std::unique_ptr<Transport> make_verbs_transport(const ClusterPlace& place, size_t slot_records, size_t item_bytes) {
  return std::make_unique<VerbsTransport>(place, slot_records, item_bytes);
}

}  // namespace chatty::verbs
