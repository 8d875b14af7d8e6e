// The inter-node layer's seam: a process is one rank of a cluster when an
// MPI launcher (mpirun, srun) started it, and the whole run otherwise. A
// rank drives `local` consecutive devices of the run's R x local; devices
// of one rank share memory, devices of different ranks reach each other
// only through the Fabric and Transport made here (MPI-3 one-sided
// operations on windows, passive target).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "comm/fabric.h"
#include "comm/transport.h"
#include "runtime/base/agreed_error.h"
#include "runtime/base/engine_options.h"
#include "runtime/base/rank_place.h"
#include "runtime/base/status.h"
#include "runtime/engine/ranks.h"

namespace chatty {

// Whether a launcher's environment names this process a rank of several
// (OpenMPI, MPICH/Hydra, PMIx, Slurm).
bool launched_as_ranks();

// This process's rank among all of its launch's (the same launchers), as
// the environment says before MPI starts; -1 unless launched_as_ranks().
int launched_rank();

// This rank's index among the ranks its launcher placed on the same node
// (OpenMPI, MPICH/Hydra, PMIx, Slurm), 0 when none says: ranks of one node
// put their GPU devices on different GPUs by it.
int node_local_rank();

// Whether this build has the MPI layer.
bool cluster_built();

// MPI for the process's lifetime: initialised on the first call when
// launched_as_ranks() (with MPI_THREAD_MULTIPLE: every device's driving
// thread issues one-sided operations), finalised at exit. Null when the
// process runs alone. Throws chatty::Error when launched as ranks by a
// build without MPI, or when MPI lacks thread support. With Net::kMpi every
// access to another rank's window is an MPI call; otherwise ranks that
// all share one node reach each other's windows by loads and stores
// (cpu_cluster/mpi/window_ops.h).
//
// `communicator` (an MPI_Comm's Fortran handle, MPI_Comm_c2f) makes the
// processes of that communicator the ranks instead, for a program that
// embeds the library, initialised MPI itself (MPI_THREAD_MULTIPLE) and
// calls every run collectively over it; the cluster layer works on a copy
// of it, and stops its watchdog when the program finalises MPI. A process
// has one cluster: a later call with another communicator (or none, after
// one) throws chatty::Error.
const ClusterPlace* cluster_start(int local_devices, Net net = Net::kAuto,
                                  std::optional<int> communicator = std::nullopt);
const ClusterPlace* cluster();
// What the engine is handed of this process's ranks: the cluster's, over
// the functions below, when cluster() is not null, else one_process().
Ranks& cluster_ranks();
// Whether the ranks reach each other's windows by loads and stores (all on
// one node, not --net=mpi); decided by cluster_start.
bool cluster_windows_shared();

// Watches the other ranks from a thread of this one (cpu_cluster/mpi/rank_watchdog.h):
// a rank not seen for `timeout_s` seconds (stopped, hung) is named and the
// job ends. A collective; 0 turns it off.
void cluster_watch(double timeout_s);
// The watch's deadline in seconds (0: none, or one rank): also how long an
// owner waits for blocks that a peer on another rank claimed before it
// takes them back.
double cluster_watch_seconds();
// An owner took back blocks that a device of rank `thief_rank` claimed and
// did not finish: the watch ends the job when that rank has not finished
// its superstep within the deadline after this (it is alive, so its beat
// alone would never name it).
void cluster_taken_back(int thief_rank);
// This rank computes its share of a whole-graph app's work, which has no
// supersteps: what the others name if it stops answering now.
void cluster_note_share();
// This rank's run is over: it gathers, validates or writes the results,
// or sets up the next run.
void cluster_note_results();
// Fault injection for the tests: CHATTY_FAULT_THIEF_STALL_S seconds that
// the process's first claim of another rank's blocks pauses; 0 when unset,
// and for every later call.
double cluster_fault_take_thief_stall_s();
// Fault injection for the tests: with CHATTY_FAULT_STOP_AT_FINISH=R, rank R
// stops itself (SIGSTOP) as the job finishes, before it tells the others.
bool cluster_fault_stop_at_finish(int rank);
// Fault injection for the tests: CHATTY_FAULT_SHM_FREE_MB, the room in
// /dev/shm the shared windows' check sees instead of the real one; -1
// when unset.
int64_t cluster_fault_shm_free_mb();

// Ends the whole job after an error on this rank: the others may be
// waiting in a collective and would never see the error line.
[[noreturn]] void cluster_abort(int code);

// An error this rank met before the ranks started (a flag, the command
// line), which every rank of an SPMD launch meets too: waits up to
// `wait_s` for every rank to report one. kSame or kDiffers (from rank 0's
// message) where all did: each may then exit with its code, and the job
// ends without an abort. kAlone where some rank did not come in time (its
// command differs, or MPI is not there): end the job with cluster_abort.
enum class FailedTogether { kSame, kDiffers, kAlone };
FailedTogether cluster_fail_together(const std::string& what, double wait_s);

// First thing in a process a launcher started as one of several ranks,
// whatever its command: joins MPI (the others' MPI_Init may wait for every
// rank, as MPICH's does) and compares the command each rank runs (`run`,
// `info`, `run --help`, ...) in the job's first collective. Returns the
// refusal every rank then holds, naming the ranks whose command differs
// from rank 0's (a rank running another would leave the others waiting for
// good); empty where all agree, outside a launcher, and in a build
// without MPI. Afterwards cluster_abort can end the job. A rank stopped
// before the ranks met, or, with `watched_later`, before cluster_watch
// runs, ends the job after `timeout_s` (0: never) with a line that says so.
std::string cluster_meet(const std::string& command, double timeout_s, bool watched_later);

// The rank's devices and the others: barrier and status all-gather
// one-sided (one thread per rank), worklist words in an MPI window.
// With Net::kVerbs, over rdma-core verbs instead (throws without a device
// or a build without libibverbs).
std::unique_ptr<Fabric> make_cluster_fabric(const ClusterPlace& place, Net net);

// The transport between ranks that --comm names:
//   auto: decide_auto (comm/transport_table.h) on this run's facts:
//     mpi_put while its window on a rank (2 x local x devices slots,
//     put_window_bytes) is at most `put_cap` bytes and one-sided transfers
//     win from 1 MB on (`small_bytes`, the switch point, at most 1 MB),
//     else mpi_ring; bounded so that many devices or a huge |V| stay on
//     the rings' fixed windows. Every rank decides alike;
//   mpi_ring: batches of at most `batch_bytes` streamed through
//     `lanes` rings (one per thread of the sender's team) sharing
//     `ring_bytes` per pair of devices on different ranks, and a pair's
//     records under `small_bytes` a superstep as one two-sided message;
//   mpi_put: records by MPI_Put into the receivers' windows, where each
//     (receiver, sender) slot holds `slot_records` records of `item_bytes`
//     and a sender with more fails the run at the next sync;
//   mpi_alltoallv: the two-sided baseline;
//   with Net::kVerbs and comm auto, RDMA WRITE into slots as mpi_put's.
// Throws chatty::Error for any other.
size_t put_window_bytes(const ClusterPlace& place, size_t slot_records, size_t item_bytes);
std::unique_ptr<Transport> make_cluster_transport(const ClusterPlace& place, Comm comm, Net net, size_t slot_records,
                                                  size_t item_bytes, size_t ring_bytes = size_t(2) << 20,
                                                  size_t batch_bytes = size_t(64) << 10,
                                                  size_t small_bytes = size_t(32) << 10, int lanes = 1,
                                                  size_t put_cap = size_t(1) << 30);

// Every rank, collectively: regions of `bytes[i]` for its local device i,
// in one MPI window. The window lives until the process exits and serves
// the next call with the same sizes on every rank (the runs of a
// --repeat), so neither making nor freeing it falls in a run. Throws
// chatty::Error in a build without MPI.
ExposedMemory& cluster_exposed(const ClusterPlace& place, const std::vector<size_t>& bytes);

// Rank 0 receives every rank's block of `values` (ranks own consecutive
// vertex ranges: [begin[r], begin[r + 1])) into its own array.
void cluster_gather(void* values, size_t item_bytes, const uint64_t* begin);

// Every rank receives every rank's block of `values`, as cluster_gather
// lays them out.
void cluster_allgather(void* values, size_t item_bytes, const uint64_t* begin);

// Bitwise OR of `bytes` bytes over every rank, in place on each.
void cluster_or(void* values, size_t bytes);

// Element-wise sums of `n` values over every rank, in place on each (the
// per-vertex results of apps whose ranks split the work, not the graph).
void cluster_sum(uint64_t* values, size_t n);
void cluster_sum(double* values, size_t n);

// A collective after work that may fail on some ranks only: returns the
// error of the lowest rank that has one, "rank R: " first unless every
// rank had it, the same text on every rank; or "" when none has. Without a
// cluster, returns `mine`.
std::string cluster_agree_error(const std::string& mine);

// Throws AgreedError(cluster_agree_error(mine)) when any rank has an error.
void cluster_throw_agreed(const std::string& mine);

// RDMA devices for the verbs data path: their names, or why there are none
// (this machine's kernel has no InfiniBand support: ibv_get_device_list
// fails with ENOSYS). Ranks exchange through MPI either way; the verbs path
// is not built yet.
struct RdmaProbe {
  std::string devices;  // comma-separated, empty when none
  std::string reason;   // why none, empty when some
};
RdmaProbe probe_rdma();

// Where the records of GPU devices inside ranks wait between ranks, and
// why. GPUDirect RDMA would let a NIC write them straight into GPU memory
// (ibv_reg_mr on device memory with the nvidia-peermem module, or a
// dma-buf of it), which needs an RDMA device, the kernel's support for
// registering GPU memory and the verbs data path; ranks here exchange
// through MPI windows in host memory, so the records are staged through
// pinned host memory, and `why` names the first condition this rank lacks.
struct GpuRingPlacement {
  std::string where;  // "pinned host memory (staged)"
  std::string why;
};
// `rdma`: probe_rdma() of this rank.
GpuRingPlacement place_gpu_rings(const RdmaProbe& rdma, Net net);

// The RDMA thesis's small/large switch for mpi_ring: a pair's records under
// `bytes` a superstep go as one two-sided message, larger ones stream
// through the ring. A collective: rank 0 looks the cluster up in the cache
// file cluster_switch.json (runtime/base/cache_dir.h, beside the topology
// cache) under its fingerprint (MPI library, one-sided component, hosts
// and ranks per host); when it is not there, or with `measure_again`,
// ranks 0 and its first partner on another host (else rank 1) time both
// paths for 256 B .. 1 MB and rank 0 caches the result. `how` says which.
struct SwitchPoint {
  size_t bytes = 0;
  std::string how;
};
SwitchPoint cluster_switch_point(bool measure_again);

// The MPI operations a rank issues in a run, by kind (MpiOp) and target
// rank (what --json reports as rank_mpi_ops). A collective or a flush of a
// whole window counts once, against the issuing rank itself. The rank
// watchdog's beats are not the run's traffic and are not counted.
const char* mpi_op_name(MpiOp op);  // "put", "get", ...
// Zeroes this rank's counts: where a run's timed part begins.
void cluster_reset_ops();
// This rank's counts since the reset, [target rank * kMpiOps + op]; empty
// without a cluster.
std::vector<uint64_t> cluster_ops();

// The largest of every rank's `value`; a collective.
double cluster_max(double value);

// Returns once every rank has called it (MPI_Barrier); a collective.
void cluster_barrier();

// The ranks whose `value` differs from rank 0's, ascending (every rank gets
// the same list); a collective. Empty without a cluster.
std::vector<int> cluster_ranks_differing(uint64_t value);
// Such a list for a line that names them: "rank 1", "ranks 1, 2".
std::string ranks_named(const std::vector<int>& ranks);

}  // namespace chatty
