// Knobs of the engine, each with a default a user can override from the
// command line (policy kept apart from the kernels that obey it).
#pragma once

#include <cstdint>
#include <string>

namespace chatty {

enum class Direction { kAuto, kPush, kPull };
enum class Backend { kCpu, kCuda };
// Exchange transports, named and described in comm/transport_table.h; auto
// lets the world's policy choose. kCopyIn is the topology policy's for
// structure chunks, never --comm's.
enum class Comm { kAuto, kHost, kHostRead, kHostView, kUva, kP2p, kNccl, kCopyIn, kMpiPut, kMpiRing, kMpiAlltoallv };
// How a device's records reach its peers: broadcast to all (the replica
// of every vertex stays current everywhere), or per peer - a changed vertex
// to the devices that read it, a push offer to its owner and readers; auto
// lets the engine's policy choose per algorithm family.
enum class Exchange { kAuto, kBroadcast, kPeer };
// What a vertex that sends one value along all its out-edges sends (seed
// 002): that value once per device that reads it, which expands it through
// its in-edges (SendAll), or a message per out-edge to the target's owner,
// which sums them (per_edge: for programs whose gather is a sum, on host
// devices). auto is SendAll.
enum class Messages { kAuto, kSendAll, kPerEdge };
// What connects ranks: MPI one-sided operations, or rdma-core verbs
// (opt-in: that path has not yet run on an RDMA device). auto is MPI.
enum class Net { kAuto, kMpi, kVerbs };
// thread/warp/block per vertex by degree; edge-balanced per block; or twc
// with hubs' edges shared by every block (kernels/cuda/advance.cuh)
enum class GpuLb { kTwc, kLb, kSplit };
// SSSP's lowest-bucket minimum on the GPU: an atomic per thread, or one per
// warp after a warp reduction.
enum class GpuBucketMin { kThread, kWarp };
// A summing gather on the GPU: one lane-group size for the chunk and a block
// per hub; vertices binned by in-degree (lanes, a warp, hubs split over
// blocks); or tiles of equal rows + edges (merge-path: rows split between
// tiles summed with atomics); or tiles whose edge sources are read
// evict-first, so the stream of edges leaves the randomly read
// contributions in L2.
enum class GpuGather { kGroups, kBinned, kTiled, kStreamed };
inline bool tiled_gather(GpuGather g) { return g == GpuGather::kTiled || g == GpuGather::kStreamed; }
// A summing gather (PageRank, Katz) on a lone CPU device: over rows of
// in-edges, or over the edges laid out again in tiles by source and target
// strip (kernels/cpu/sum_tiles.h), whose random reads stay in a core's L2;
// auto lays the tiles out once the run's remaining supersteps repay them,
// on graphs whose in-edges come from far-off ids (runtime/host/sum_layout.h).
enum class CpuGather { kAuto, kRows, kTiles };
// Triangle counting on the GPU: a warp per row, the row's list and its hit
// counts in shared memory; or a thread per list entry, each hit an atomic
// on the third vertex's count (kernels/cuda/triangles.cuh).
enum class GpuTc { kRows, kEntries };
// Betweenness scores as Brandes sums them (each ordered pair of an
// undirected graph twice, GAP's), or in NetworkX's two conventions
// (apps/bc/scale.h).
enum class BcScale { kOrdered, kPairs, kNormalized };
// What the closeness app reports of each vertex's distances (NetworkX's
// closeness_centrality with wf_improved, harmonic_centrality, eccentricity).
enum class DistanceMeasure { kCloseness, kHarmonic, kEccentricity };
// The similarity app's coefficient of a pair's neighbourhoods A and B:
// |A & B| / |A | B| (Jaccard), / min(|A|, |B|) (overlap), or 2 |A & B| /
// (|A| + |B|) (Sorensen-Dice), as cuGraph names them.
enum class Similarity { kJaccard, kOverlap, kSorensen };
// Host devices [first, last] (numbered over every rank's devices) pause
// `pause_us` before each block of their own work, as devices whose cores
// another tenant took: shows work migration at work, and lets tests
// exercise it on machines too idle to make a straggler of their own.
struct Straggler {
  int first = -1, last = -1;
  uint32_t pause_us = 0;
  bool slows(int d) const { return pause_us > 0 && d >= first && d <= last; }
};

// Beamer's push/pull thresholds (GAP's): pull once the frontier's
// out-edges exceed the unexplored edges / alpha; push again below |V| / beta.
inline constexpr double kDefaultAlpha = 15, kDefaultBeta = 18;

struct EngineOptions {
  int threads = 0;  // 0: all cores
  Direction direction = Direction::kAuto;
  // Direction-optimizing switch (Beamer et al.): go pull when the frontier's
  // out-edges exceed unexplored edges / alpha; back to push when the frontier
  // shrinks below |V| / beta.
  double alpha = kDefaultAlpha, beta = kDefaultBeta;
  uint64_t delta = 0;       // SSSP bucket width; 0: chosen from the graph
  double tolerance = 1e-6;  // PageRank, Katz, eigenvector, HITS: stop when the L1 change < tolerance
  int max_iters = 100;      // PageRank, Katz, eigenvector, HITS
  double damping = 0.85;
  BcScale bc_scale = BcScale::kOrdered;
  double katz_alpha = 0, katz_beta = 1.0;  // Katz: x = alpha A^T x + beta; alpha 0: 0.9 / max in-degree
  bool katz_normalized = true;
  // Louvain: NetworkX's resolution (below 1 favours larger communities) and
  // threshold (a level must raise modularity by more to go on), and at most
  // max_level levels (0: no limit).
  double resolution = 1.0, threshold = 1e-7;
  uint32_t max_level = 0;
  uint32_t passes = 0;  // Leiden: at most this many passes of levels (0: until three in a row gain under 1e-5)
  // Louvain, Leiden: keep every level's communities (AppOutput::levels).
  bool keep_levels = false;
  DistanceMeasure distance_measure =
      DistanceMeasure::kCloseness;  // Katz: scaled to unit L2 norm, as NetworkX's normalized=True
  Similarity similarity = Similarity::kJaccard;
  bool union_find = true;  // WCC: link with union-find (else label propagation)
  int devices = 1;         // host devices; the machine's threads are split between them
  bool numa = false;       // bind device d to NUMA node d % nodes (libnuma)
  bool migrate = true;     // host devices: an idle device computes blocks of a busy one (work migration)
  // Ranks: a device claims `migrate_block` worklist blocks of a device on
  // another rank at a time, while that one has more than
  // `migrate_threshold` left, and keeps what it fetched of their structure
  // in `migrate_cache_mb` (RGraph's migrate_block, migrate_threshold and
  // migration cache).
  uint32_t migrate_block = 4, migrate_threshold = 8, migrate_cache_mb = 64;
  Straggler straggler;  // none
  // Host devices: each holds its own copy of its chunk's edges, as a rank
  // of the cluster layer does, instead of views of the loaded graph.
  bool chunk_copies = false;
  Comm comm = Comm::kAuto;
  Exchange exchange = Exchange::kAuto;
  Messages messages = Messages::kAuto;
  Net net = Net::kAuto;
  // Ranks, --comm=mpi_ring: each (sender, receiver) ring's bytes, and the
  // most a batch carries (RGraph: 2 MB rings; 256 messages or 2 KB batches).
  size_t ring_bytes = size_t(2) << 20;
  size_t batch_bytes = size_t(64) << 10;
  // Ranks, --comm=auto: mpi_put while its window on a rank is at most
  // this many bytes, else mpi_ring (cpu_cluster/cluster.h).
  size_t put_window_bytes = size_t(1) << 30;
  // Rings per pair, one per thread of the sender's team that streams its
  // share.
  int ring_lanes = 1;
  // A pair's records under this many bytes a superstep go as one
  // two-sided message instead (the RDMA thesis's small/large switch).
  size_t small_bytes = size_t(32) << 10;
  Backend backend = Backend::kCpu;  // resolved: never auto
  GpuLb gpu_lb = GpuLb::kSplit;
  GpuGather gpu_gather = GpuGather::kTiled;
  GpuBucketMin gpu_bucket_min = GpuBucketMin::kWarp;
  GpuTc gpu_tc = GpuTc::kRows;
  // A lone GPU device on a long run of thin push supersteps (grids, roads)
  // queues this many supersteps behind each other before the host reads
  // their status.
  int gpu_steps_per_sync = 16;  // 0.64x the time of 1 on grid:2000x2000 BFS (H200, docs/gpu.md)
  // A lone GPU device runs supersteps whose frontier has at most this many
  // vertices (BFS, WCC's propagation) or that improved at most this many
  // (SSSP) as a wave: many levels in one launch (kernels/wave.h). 0: never,
  // until a GPU measures the threshold.
  uint64_t gpu_wave = 0;
  // The only CPU device runs push supersteps whose frontier has at most
  // this many vertices as a wave: levels apart by a barrier of its team
  // instead of a superstep each (kernels/cpu/push_wave.h). 0: never.
  uint64_t cpu_wave = 4096;
  CpuGather cpu_gather = CpuGather::kAuto;
};

// Each parse_* throws chatty::Error naming the flag and its choices.
// "D:US" or "FIRST-LAST:US" (--straggler); "" is none.
Straggler parse_straggler(const std::string& s);
// Throws chatty::Error where `s` names a device beyond a run of `devices`.
void check_straggler(const Straggler& s, int devices);
Direction parse_direction(const std::string& s);
const char* direction_name(Direction d);
Exchange parse_exchange(const std::string& s);
const char* exchange_name(Exchange e);
Messages parse_messages(const std::string& s);
const char* messages_name(Messages m);
Net parse_net(const std::string& s);
const char* net_name(Net n);
GpuLb parse_gpu_lb(const std::string& s);
const char* gpu_lb_name(GpuLb lb);
GpuGather parse_gpu_gather(const std::string& s);
const char* gpu_gather_name(GpuGather g);
CpuGather parse_cpu_gather(const std::string& s);
const char* cpu_gather_name(CpuGather g);
GpuBucketMin parse_gpu_bucket_min(const std::string& s);
const char* gpu_bucket_min_name(GpuBucketMin b);
GpuTc parse_gpu_tc(const std::string& s);
const char* gpu_tc_name(GpuTc t);
BcScale parse_bc_scale(const std::string& s);
const char* bc_scale_name(BcScale s);
DistanceMeasure parse_distance_measure(const std::string& s);
Similarity parse_similarity(const std::string& s);
const char* similarity_name(Similarity s);
const char* backend_name(Backend b);

}  // namespace chatty
