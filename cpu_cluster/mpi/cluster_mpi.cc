// The inter-node layer over MPI-3 one-sided operations (passive target:
// every window is locked for all ranks once, and each operation completes
// with a flush), or, with every rank on one node, loads and stores in the
// shared windows (cpu_cluster/mpi/window_ops.h). One box runs OpenMPI's
// `osc sm` component (its default `osc rdma` crashes on 64-bit
// compare-and-swap over shared memory); clusters run `osc ucx`.
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "comm/transport_table.h"
#include "cpu_cluster/cluster.h"
#include "cpu_cluster/mpi/mpi_util.h"
#include "cpu_cluster/mpi/node_cpus.h"
#include "cpu_cluster/mpi/rank_watchdog.h"
#include "cpu_cluster/mpi/start_guard.h"
#include "cpu_cluster/mpi/transports.h"
#include "cpu_cluster/mpi/window_ops.h"
#include "cpu_cluster/one_sided_collective.h"
#if defined(CHATTY_HAVE_VERBS)
#include "cpu_cluster/verbs/verbs_net.h"
#endif
#include "runtime/base/status.h"

namespace chatty {
namespace {

using mpi::check_mpi;
using mpi::RankMeeting;

ClusterPlace g_place;
bool g_started = false;
double g_watch_seconds = 0;

void finalize_at_exit() {
  int done = 0;
  MPI_Finalized(&done);
  if (done) return;
  mpi::stop_rank_watchdog();
  mpi::release_exposed();
  MPI_Finalize();
}

// One-sided access to the fabric window's words for the collectives.
struct WindowWire {
  int rank;
  mpi::WindowOps* ops;
  MPI_Win win;
  void* base;

  void put(int r, size_t word, const void* from, size_t bytes) { ops->put(r, byte_of(word), from, bytes); }
  void complete() { ops->flush_all(rank); }
  void raise(int r, size_t word, uint64_t n) { ops->replace(r, byte_of(word), n); }
  uint64_t read(size_t word) const {
    return std::atomic_ref<uint64_t>(static_cast<uint64_t*>(base)[word]).load(std::memory_order_acquire);
  }
  void idle() {
    MPI_Win_sync(win);
    mpi::poke_progress();
  }
  const std::byte* view(size_t word) {
    MPI_Win_sync(win);
    return reinterpret_cast<const std::byte*>(static_cast<uint64_t*>(base) + word);
  }
  static MPI_Aint byte_of(size_t word) { return MPI_Aint(word * sizeof(uint64_t)); }
};

// The status agreement and the barrier run cpu_cluster/one_sided_collective.h
// over the window: records by MPI_Put, arrival words by MPI_Accumulate.
class ClusterFabric : public Fabric {
 public:
  static constexpr int kWordsPerDevice = 256;
  static constexpr size_t kRecordBytes = 256;

  explicit ClusterFabric(const ClusterPlace& place)
      : place_(place),
        meeting_(place.local),
        mine_(kRecordBytes * size_t(place.local)),
        collective_(place.rank, place.ranks, kRecordBytes * size_t(place.local),
                    size_t(kWordsPerDevice) * size_t(place.local)),
        window_words_(size_t(kWordsPerDevice) * size_t(place.local) +
                      OneSidedCollective::words(place.ranks, kRecordBytes * size_t(place.local))) {
    mpi::allocate_window(sizeof(uint64_t) * window_words_, 1, &base_, &win_);
    mpi::prepare_window(win_, "the cluster fabric");
    ops_ = std::make_unique<mpi::WindowOps>(win_);
    wire_ = {place.rank, ops_.get(), win_, base_};
    std::memset(base_, 0, sizeof(uint64_t) * window_words_);
    MPI_Barrier(mpi::ranks_comm());  // every window is zero before anyone reaches into it
    check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_), "MPI_Win_lock_all");
  }
  ~ClusterFabric() override { mpi::release_window(&win_); }

  int devices() const override { return place_.devices(); }
  bool shares_memory(int a, int b) const override { return place_.rank_of(a) == place_.rank_of(b); }

  void barrier(int d) override {
    meeting_.meet(d, [&] { collective_.run(wire_, nullptr, 0, nullptr); });
  }

  void all_gather(int d, const void* mine, size_t bytes, void* all) override {
    CHATTY_CHECK(bytes <= kRecordBytes, "status record too large for the fabric (internal error)");
    const int local = place_.local;
    std::memcpy(mine_.data() + size_t(d % local) * bytes, mine, bytes);
    meeting_.meet(d, [&] {
      mpi::note_rank_phase(mpi::RankPhase::kRunning, ++supersteps_);
      gathered_.resize(bytes * size_t(devices()));
      collective_.run(wire_, mine_.data(), bytes * size_t(local), gathered_.data());
    });
    std::memcpy(all, gathered_.data(), bytes * size_t(devices()));
    // The next call's collective rewrites gathered_ only after its first
    // barrier, which every thread reaches after this copy.
  }

  int reserve_words(int count) override {
    const int first = reserved_;
    reserved_ += count;
    CHATTY_CHECK(reserved_ <= kWordsPerDevice, "the cluster fabric's window is out of words (internal error)");
    return first;
  }

  uint64_t load(int owner, int w) override {
    uint64_t v = 0;
    rmw(owner, w, nullptr, &v, MPI_NO_OP);
    return v;
  }
  void store(int owner, int w, uint64_t value) override {
    uint64_t old = 0;
    rmw(owner, w, &value, &old, MPI_REPLACE);
  }
  bool compare_exchange(int owner, int w, uint64_t& expected, uint64_t desired) override {
    const auto [rank, disp] = where(owner, w);
    const uint64_t seen = ops_->compare_swap(rank, disp, expected, desired);
    const bool won = seen == expected;
    expected = seen;
    return won;
  }
  uint64_t fetch_add(int owner, int w, uint64_t add) override {
    uint64_t old = 0;
    rmw(owner, w, &add, &old, MPI_SUM);
    return old;
  }

 private:
  uint64_t supersteps_ = 0;  // status agreements so far, for the watchdog
  std::pair<int, MPI_Aint> where(int owner, int w) const {
    return {place_.rank_of(owner), WindowWire::byte_of(size_t(owner % place_.local) * kWordsPerDevice + size_t(w))};
  }
  // Accumulate-class operations are atomic against each other, which plain
  // loads and stores of the window memory are not: every access goes here.
  void rmw(int owner, int w, const uint64_t* operand, uint64_t* result, MPI_Op op) {
    const auto [rank, disp] = where(owner, w);
    *result = ops_->fetch_op(rank, disp, operand ? *operand : 0, op);
  }

  const ClusterPlace place_;
  RankMeeting meeting_;
  std::vector<std::byte> mine_, gathered_;
  OneSidedCollective collective_;
  const size_t window_words_;
  MPI_Win win_ = MPI_WIN_NULL;
  void* base_ = nullptr;
  std::unique_ptr<mpi::WindowOps> ops_;
  WindowWire wire_{};
  int reserved_ = 0;
};

}  // namespace

bool cluster_built() { return true; }

#if defined(CHATTY_HAVE_VERBS)
static std::unique_ptr<Fabric> verbs_fabric(const ClusterPlace& place) { return verbs::make_verbs_fabric(place); }
static std::unique_ptr<Transport> verbs_transport(const ClusterPlace& place, size_t slot_records, size_t item_bytes) {
  return verbs::make_verbs_transport(place, slot_records, item_bytes);
}
#else
static std::unique_ptr<Fabric> verbs_fabric(const ClusterPlace&) {
  throw Error("--net=verbs: this build has no rdma-core (install libibverbs-dev and rebuild)");
}
static std::unique_ptr<Transport> verbs_transport(const ClusterPlace&, size_t, size_t) {
  throw Error("--net=verbs: this build has no rdma-core (install libibverbs-dev and rebuild)");
}
#endif

namespace {

// Once per process, by the first of cluster_meet and cluster_start.
void join_mpi() {
  int up = 0;
  MPI_Initialized(&up);
  if (up) return;
  // OpenMPI's default one-sided component (osc rdma) crashes on a 64-bit
  // compare-and-swap over shared memory: unless the user chose one, take
  // sm inside one box and ucx across boxes. Read by MPI_Init.
  if (std::getenv("OMPI_COMM_WORLD_SIZE")) setenv("OMPI_MCA_osc", "sm,ucx", /*overwrite=*/0);
  int provided = 0;
  check_mpi(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
  std::atexit(finalize_at_exit);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

}  // namespace

// The failing ranks' own communicator (cluster_fail_together), made when
// the ranks meet: its barrier is never mixed with the collectives of ranks
// that go on.
MPI_Comm g_failing = MPI_COMM_NULL;

std::string cluster_meet(const std::string& command, double timeout_s, bool watched_later) {
  if (!launched_as_ranks()) return "";
  mpi::arm_start_guard(timeout_s, launched_rank());
  join_mpi();
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &g_failing), "MPI_Comm_dup");
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  constexpr size_t kText = 64;  // enough to tell commands apart; longer ones are cut
  std::vector<char> all(kText * size_t(ranks));
  std::vector<char> mine(kText, '\0');
  command.copy(mine.data(), kText - 1);
  check_mpi(MPI_Allgather(mine.data(), int(kText), MPI_CHAR, all.data(), int(kText), MPI_CHAR, MPI_COMM_WORLD),
            "MPI_Allgather");
  auto text_of = [&](int r) { return std::string(all.data() + kText * size_t(r)); };
  std::vector<int> differ;
  for (int r = 1; r < ranks; ++r)
    if (text_of(r) != text_of(0)) differ.push_back(r);
  if (!watched_later || !differ.empty()) mpi::disarm_start_guard();
  if (differ.empty()) return "";
  return ranks_named(differ) + (differ.size() > 1 ? " run" : " runs") + " `chatty " + text_of(differ[0]) +
         "`, not `chatty " + text_of(0) + "` as rank 0 does: every rank of a launch must run the same command";
}

namespace {

// What the process's cluster was started over: the launcher's world, or
// the caller's communicator (its Fortran handle).
std::optional<int> g_given_comm;

// Called by MPI_Finalize (before anything else is torn down, on every
// rank: the frees are collectives) when the program embedding the library
// finalises MPI itself: the watchdog's threads and the windows kept
// between runs issue MPI calls, which must all be over by then.
int stop_at_finalize(MPI_Comm, int, void*, void*) {
  mpi::stop_rank_watchdog();
  mpi::release_exposed();
  MPI_Comm_free(&mpi::ranks_comm());
  g_started = false;
  return MPI_SUCCESS;
}

std::string comm_name(const std::optional<int>& c) {
  return c ? "communicator " + std::to_string(*c) : std::string("the launcher's ranks (MPI_COMM_WORLD)");
}

// The caller's communicator, checked: MPI up with threads, a live handle.
MPI_Comm callers_comm(int handle) {
  int up = 0, done = 0;
  MPI_Initialized(&up);
  MPI_Finalized(&done);
  CHATTY_CHECK(up && !done, "communicator " + std::to_string(handle) +
                                ": MPI is not running in this process (the program must call MPI_Init_thread with "
                                "MPI_THREAD_MULTIPLE before a run over its communicator)");
  const MPI_Comm c = MPI_Comm_f2c(MPI_Fint(handle));
  CHATTY_CHECK(c != MPI_COMM_NULL, "communicator " + std::to_string(handle) + " is MPI_COMM_NULL");
  return c;
}

}  // namespace

const ClusterPlace* cluster_start(int local_devices, Net net, std::optional<int> communicator) {
  if (g_started) {
    CHATTY_CHECK(communicator == g_given_comm, "this process's ranks were started over " + comm_name(g_given_comm) +
                                                   "; a run over " + comm_name(communicator) +
                                                   " cannot join them (a process has one cluster: give every run the "
                                                   "same communicator)");
    return &g_place;
  }
  if (!communicator && !launched_as_ranks()) return nullptr;
  MPI_Comm base = MPI_COMM_WORLD;
  if (communicator) {
    base = callers_comm(*communicator);
  } else {
    join_mpi();
  }
  int provided = 0;
  MPI_Query_thread(&provided);
  CHATTY_CHECK(provided >= MPI_THREAD_MULTIPLE, "this MPI library lacks MPI_THREAD_MULTIPLE");
  MPI_Comm ranks = MPI_COMM_NULL;
  check_mpi(MPI_Comm_dup(base, &ranks), "MPI_Comm_dup");  // the engine's tags and collectives are its own
  MPI_Comm_set_errhandler(ranks, MPI_ERRORS_RETURN);
  mpi::ranks_comm() = ranks;
  g_given_comm = communicator;
  if (communicator) {
    int key = MPI_KEYVAL_INVALID;
    check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, stop_at_finalize, &key, nullptr), "MPI_Comm_create_keyval");
    check_mpi(MPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr), "MPI_Comm_set_attr");
  }
  MPI_Comm_rank(ranks, &g_place.rank);
  MPI_Comm_size(ranks, &g_place.ranks);
  g_place.local = local_devices;
  MPI_Comm node;  // this node's ranks; collectives: every rank is here
  check_mpi(MPI_Comm_split_type(ranks, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  mpi::decide_shared_windows(net != Net::kMpi, node);
  g_place.cpus = mpi::node_cpus(node);
  MPI_Comm_free(&node);
  mpi::start_op_counts(g_place.ranks);
  g_started = true;
  return &g_place;
}

const ClusterPlace* cluster() { return g_started ? &g_place : nullptr; }

bool cluster_windows_shared() { return g_started && mpi::shared_windows(); }

void cluster_watch(double timeout_s) {
  if (!g_started) return;
  mpi::start_rank_watchdog(timeout_s);
  mpi::disarm_start_guard();
  if (g_place.ranks > 1) g_watch_seconds = std::max(0.0, timeout_s);
}

double cluster_watch_seconds() { return g_watch_seconds; }

void cluster_taken_back(int thief_rank) { mpi::note_taken_back(thief_rank); }

void cluster_note_share() { mpi::note_rank_phase(mpi::RankPhase::kShare, 0); }

void cluster_note_results() { mpi::note_rank_phase(mpi::RankPhase::kResults, 0); }

FailedTogether cluster_fail_together(const std::string& what, double wait_s) {
  if (g_failing == MPI_COMM_NULL) return FailedTogether::kAlone;
  MPI_Request all;
  if (MPI_Ibarrier(g_failing, &all) != MPI_SUCCESS) return FailedTogether::kAlone;
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
  int done = 0;
  while (MPI_Test(&all, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  if (!done) return FailedTogether::kAlone;  // the request stays pending: the job is aborted next
  // Every rank is here: a broadcast of rank 0's message cannot wait on one that went on.
  const uint64_t mine = std::hash<std::string>()(what);
  uint64_t first = mine;
  check_mpi(MPI_Bcast(&first, 1, MPI_UINT64_T, 0, g_failing), "MPI_Bcast");
  return first == mine ? FailedTogether::kSame : FailedTogether::kDiffers;
}

void cluster_abort(int code) {
  // Where two ranks abort at once, MPICH's launcher could end both before
  // either line was out.
  mpi::let_lines_out();
  // The world's, whatever the ranks' communicator: MPICH's abort of
  // another one can leave the launcher waiting for good.
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

std::unique_ptr<Fabric> make_cluster_fabric(const ClusterPlace& place, Net net) {
  if (net == Net::kVerbs) return verbs_fabric(place);
  return std::make_unique<ClusterFabric>(place);
}

std::unique_ptr<Transport> make_cluster_transport(const ClusterPlace& place, Comm comm, Net net, size_t slot_records,
                                                  size_t item_bytes, size_t ring_bytes, size_t batch_bytes,
                                                  size_t small_bytes, int lanes, size_t put_cap) {
  if (comm == Comm::kMpiAlltoallv) return mpi::make_alltoallv_transport(place, item_bytes);
  if (comm == Comm::kAuto)
    comm = decide_auto(World::kRanks, {net, put_window_bytes(place, slot_records, item_bytes), put_cap, small_bytes});
  if (comm == Comm::kMpiRing)
    return mpi::make_ring_transport(place, item_bytes, ring_bytes, batch_bytes, small_bytes, lanes);
  if (comm == Comm::kAuto) return verbs_transport(place, slot_records, item_bytes);
  check_serves(comm, World::kRanks);
  return mpi::make_put_transport(place, slot_records, item_bytes);
}

void cluster_gather(void* values, size_t item_bytes, const uint64_t* begin) {
  const int R = g_place.ranks;
  std::vector<int> counts(static_cast<size_t>(R)), displs(static_cast<size_t>(R));
  for (int r = 0; r < R; ++r) {
    counts[size_t(r)] = int((begin[r + 1] - begin[r]) * item_bytes);
    displs[size_t(r)] = int(begin[r] * item_bytes);
  }
  auto* bytes = static_cast<std::byte*>(values);
  const int me = g_place.rank;
  if (me == 0)
    MPI_Gatherv(MPI_IN_PLACE, 0, MPI_BYTE, bytes, counts.data(), displs.data(), MPI_BYTE, 0, mpi::ranks_comm());
  else
    MPI_Gatherv(bytes + displs[size_t(me)], counts[size_t(me)], MPI_BYTE, nullptr, nullptr, nullptr, MPI_BYTE, 0,
                mpi::ranks_comm());
}

void cluster_allgather(void* values, size_t item_bytes, const uint64_t* begin) {
  const int R = g_place.ranks;
  std::vector<int> counts(static_cast<size_t>(R)), displs(static_cast<size_t>(R));
  for (int r = 0; r < R; ++r) {
    CHATTY_CHECK(begin[r + 1] * item_bytes < (uint64_t(1) << 31), "a rank's block exceeds 2 GiB (internal limit)");
    counts[size_t(r)] = int((begin[r + 1] - begin[r]) * item_bytes);
    displs[size_t(r)] = int(begin[r] * item_bytes);
  }
  check_mpi(
      MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, values, counts.data(), displs.data(), MPI_BYTE, mpi::ranks_comm()),
      "MPI_Allgatherv");
}

void cluster_or(void* values, size_t bytes) {
  auto* p = static_cast<std::byte*>(values);
  for (size_t done = 0; done < bytes;) {  // MPI counts are ints
    const int part = int(std::min<size_t>(bytes - done, size_t(1) << 30));
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, p + done, part, MPI_BYTE, MPI_BOR, mpi::ranks_comm()), "MPI_Allreduce");
    done += size_t(part);
  }
}

namespace {

template <typename T>
void sum_in_place(T* values, size_t n, MPI_Datatype type) {
  if (!g_started) return;
  for (size_t done = 0; done < n;) {  // MPI counts are ints
    const int part = int(std::min<size_t>(n - done, size_t(1) << 28));
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, values + done, part, type, MPI_SUM, mpi::ranks_comm()), "MPI_Allreduce");
    done += size_t(part);
  }
}

}  // namespace

void cluster_sum(uint64_t* values, size_t n) { sum_in_place(values, n, MPI_UINT64_T); }
void cluster_sum(double* values, size_t n) { sum_in_place(values, n, MPI_DOUBLE); }

std::string cluster_agree_error(const std::string& mine) {
  if (!g_started) return mine;
  const int me = g_place.rank;
  int first = mine.empty() ? g_place.ranks : me;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, mpi::ranks_comm());
  if (first == g_place.ranks) return "";
  int len = me == first ? int(mine.size()) : 0;
  MPI_Bcast(&len, 1, MPI_INT, first, mpi::ranks_comm());
  std::string text = me == first ? mine : std::string(size_t(len), ' ');
  MPI_Bcast(text.data(), len, MPI_CHAR, first, mpi::ranks_comm());
  int shared = text == mine;
  MPI_Allreduce(MPI_IN_PLACE, &shared, 1, MPI_INT, MPI_MIN, mpi::ranks_comm());
  return shared ? text : "rank " + std::to_string(first) + ": " + text;  // a failure the others did not share
}

std::vector<int> cluster_ranks_differing(uint64_t value) {
  if (!g_started) return {};
  std::vector<uint64_t> all(size_t(g_place.ranks));
  check_mpi(MPI_Allgather(&value, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, mpi::ranks_comm()), "MPI_Allgather");
  std::vector<int> differ;
  for (int r = 1; r < g_place.ranks; ++r)
    if (all[size_t(r)] != all[0]) differ.push_back(r);
  return differ;
}

void cluster_throw_agreed(const std::string& mine) {
  const std::string agreed = cluster_agree_error(mine);
  if (!agreed.empty()) throw AgreedError(agreed);
}

double cluster_max(double value) {
  double out = value;
  if (g_started) MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, mpi::ranks_comm());
  return out;
}

void cluster_barrier() {
  if (g_started) MPI_Barrier(mpi::ranks_comm());
}

}  // namespace chatty
