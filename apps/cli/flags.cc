#include "apps/cli/flags.h"

#include <omp.h>

#include <cstdio>

#include "comm/transport_table.h"
#include "datasets/formats.h"
#include "runtime/base/status.h"

// The formats' names and extensions come from their table (datasets/formats.h).
static const std::string kGraphHelp = "input: a graph file (" + chatty::format_extensions() +
                                      ", also gzip/zstd/bzip2), - for standard input, or a spec kron:SCALE[:EF], "
                                      "urand:SCALE[:EF], grid:WxH";
static const std::string kFormatHelp = "input format: auto (by content, else extension), " + chatty::format_names();
DEFINE_string(graph, "kron:16", kGraphHelp.c_str());
DEFINE_string(format, "auto", kFormatHelp.c_str());
DEFINE_string(ids, "auto",
              "how an edge list's ids name its vertices: auto (positions 0..max for GAP's .el/.wel and files "
              "opening with a vertex count; else the ids that occur, as SNAP and NetworkX count them), "
              "positions or occurring. DIMACS, Matrix Market and METIS are 1-based");
DEFINE_bool(symmetrize, false, "add the reverse of every edge (undirected graph)");
DEFINE_bool(undirected, false, "the graph is undirected: same as --symmetrize (Gunrock's spelling)");
DEFINE_bool(dedupe, true, "keep one copy of parallel edges (the lightest)");
DEFINE_bool(drop_self_loops, true, "drop edges from a vertex to itself");
DEFINE_uint64(seed, 1, "seed for generators and default SSSP weights");
DEFINE_int32(threads, 0, "CPU threads (0: all cores)");
DEFINE_bool(json, false, "print one JSON object on the last line of stdout");
DEFINE_string(direction, "auto", "traversal direction: auto (switch by frontier size), push or pull");
DEFINE_double(alpha, 15.0, "BFS: go pull when frontier edges > unexplored edges / alpha");
DEFINE_double(beta, 18.0, "BFS: back to push when the frontier < |V| / beta");
DEFINE_uint64(delta, 0, "SSSP bucket width (0: chosen from the graph)");
DEFINE_double(tolerance, 1e-6, "PageRank: stop when the L1 change of ranks < tolerance");
DEFINE_int32(max_iters, 100, "PageRank only: at most this many iterations (k-core runs until no core changes)");
DEFINE_double(damping, 0.85, "PageRank damping factor");
DEFINE_string(bc_scale, "ordered",
              "BC: ordered (Brandes' sums: each ordered pair, so an undirected pair twice; GAP's), pairs "
              "(NetworkX's normalized=False: an undirected pair once, a sample scaled to all sources) or "
              "normalized (NetworkX's normalized=True: divided by the pairs there are)");
DEFINE_int32(devices, 1, "devices to split the graph over (host devices: the threads are divided between them)");
DEFINE_bool(numa, false, "bind device d to NUMA node d % nodes (multi-socket hosts; needs --devices > 1)");
DEFINE_bool(migrate, true,
            "host devices: a device out of work computes blocks of a busy peer's (work migration: PageRank, "
            "push and pull steps, WCC compression)");
DEFINE_uint32(migrate_block, 4,
              "ranks: blocks (of 1024 vertices) a device claims at a time from a busy device of another rank "
              "(PageRank)");
DEFINE_uint32(migrate_threshold, 8, "ranks: a busy device keeps its last this many blocks from other ranks");
DEFINE_uint32(migrate_cache_mb, 64,
              "ranks: MB of the fetched in-edge rows of migrated blocks a device keeps for later supersteps");
DEFINE_string(straggler, "",
              "host devices: D:US or FIRST-LAST:US makes those devices (numbered over all ranks) pause US "
              "microseconds before each block of their own, as if another tenant had their cores; shows work "
              "migration at work (--json's migrated counts)");
DEFINE_string(comm, "auto",
              "exchange transport: auto (host devices and ranks: their default; GPU devices: the topology policy's "
              "pick per data class and size) or a name that `chatty topo --transports` lists with the devices it "
              "serves");
DEFINE_uint64(ring_bytes, 2 << 20, "ranks, --comm=mpi_ring: bytes of each (sender, receiver) ring");
DEFINE_uint64(put_window_mb, 1024,
              "ranks, --comm=auto: mpi_put while its window (2 x local x all devices slots of |V| records) is at "
              "most this many MiB a rank and one-sided transfers win at 1 MB (--small_bytes), else mpi_ring");
DEFINE_uint64(batch_bytes, 64 << 10, "ranks, --comm=mpi_ring: the most bytes one batch carries");
DEFINE_int32(ring_lanes, 1,
             "ranks, --comm=mpi_ring: rings per device pair, one per sending thread, sharing --ring_bytes (as many "
             "as a device has threads where each thread has a core of its own)");
DEFINE_string(small_bytes, "auto",
              "ranks, --comm=mpi_ring: a pair's records under this many bytes a superstep go as one two-sided "
              "message instead of through the ring (0: always the ring); auto: the switch point measured "
              "between two ranks, cached per cluster; measure: measure it again");
DEFINE_string(net, "auto",
              "ranks under mpirun: what connects them: auto (ranks that all share one node reach each other's "
              "windows by loads and stores in shared memory, else MPI's one-sided operations), mpi (MPI's "
              "one-sided operations for every access, as between nodes) or verbs (rdma-core; needs an RDMA "
              "device, and has not yet run on one)");
DEFINE_string(exchange, "auto",
              "host devices: how records reach peers: broadcast (to every device), peer (a changed vertex only "
              "to the devices holding an edge to it, a push offer to its owner and those) or auto (peer between "
              "ranks of more than two devices in all, else broadcast); GPU devices broadcast");

DEFINE_string(messages, "auto",
              "host devices: what a PageRank vertex sends: sendall (its value once to each device that reads it, "
              "which expands it through its in-edges; auto) or per_edge (one message per out-edge to the "
              "target's owner, as Pregel without a combiner does; the baseline SendAll is measured against)");

namespace chatty::cli {

LoadOptions load_options() {
  LoadOptions o;
  o.format = parse_format(FLAGS_format);
  o.ids = parse_id_choice(FLAGS_ids);
  o.build.symmetrize = FLAGS_symmetrize || FLAGS_undirected;
  o.build.dedupe = FLAGS_dedupe;
  o.build.drop_self_loops = FLAGS_drop_self_loops;
  o.seed = FLAGS_seed;
  return o;
}

EngineOptions engine_options() {
  EngineOptions o;
  o.threads = FLAGS_threads;
  o.direction = parse_direction(FLAGS_direction);
  CHATTY_CHECK(FLAGS_alpha > 0 && FLAGS_beta > 0, "--alpha and --beta must be positive");
  o.alpha = FLAGS_alpha;
  o.beta = FLAGS_beta;
  o.delta = FLAGS_delta;
  CHATTY_CHECK(FLAGS_tolerance > 0, "--tolerance must be positive");
  o.tolerance = FLAGS_tolerance;
  CHATTY_CHECK(FLAGS_max_iters > 0, "--max_iters must be at least 1");
  o.max_iters = FLAGS_max_iters;
  CHATTY_CHECK(FLAGS_damping > 0 && FLAGS_damping < 1, "--damping must be in (0, 1)");
  o.damping = FLAGS_damping;
  o.bc_scale = parse_bc_scale(FLAGS_bc_scale);
  CHATTY_CHECK(FLAGS_devices >= 1 && FLAGS_devices <= 1024, "--devices must be between 1 and 1024");
  o.devices = FLAGS_devices;
  o.comm = parse_comm(FLAGS_comm);
  o.exchange = parse_exchange(FLAGS_exchange);
  o.messages = parse_messages(FLAGS_messages);
  o.net = parse_net(FLAGS_net);
  o.ring_bytes = FLAGS_ring_bytes;
  CHATTY_CHECK(FLAGS_put_window_mb <= (uint64_t(1) << 30), "--put_window_mb must be 0..2^30");
  o.put_window_bytes = size_t(FLAGS_put_window_mb) << 20;
  o.batch_bytes = FLAGS_batch_bytes;
  CHATTY_CHECK(FLAGS_ring_lanes >= 1 && FLAGS_ring_lanes <= 64, "--ring_lanes must be 1..64");
  o.ring_lanes = FLAGS_ring_lanes;
  if (FLAGS_small_bytes != "auto" && FLAGS_small_bytes != "measure") {
    CHATTY_CHECK(!FLAGS_small_bytes.empty() && FLAGS_small_bytes.size() <= 10 &&
                     FLAGS_small_bytes.find_first_not_of("0123456789") == std::string::npos,
                 "--small_bytes must be auto, measure or a byte count (got '" + FLAGS_small_bytes + "')");
    o.small_bytes = std::stoull(FLAGS_small_bytes);
  }
  o.numa = FLAGS_numa;
  o.migrate = FLAGS_migrate;
  CHATTY_CHECK(FLAGS_migrate_block >= 1, "--migrate_block must be >= 1");
  o.migrate_block = FLAGS_migrate_block;
  o.migrate_threshold = FLAGS_migrate_threshold;
  o.migrate_cache_mb = FLAGS_migrate_cache_mb;
  o.straggler = parse_straggler(FLAGS_straggler);
  return o;
}

int apply_threads() {
  CHATTY_CHECK(FLAGS_threads >= 0, "--threads must be >= 0");
  // Far more threads than cores only adds barriers that spin while the
  // threads holding the cores wait for them.
  const int cap = 4 * omp_get_num_procs();
  if (FLAGS_threads > cap) {
    std::fprintf(stderr, "chatty: warning: --threads=%d is more than 4x the %d cores: using %d\n", FLAGS_threads,
                 omp_get_num_procs(), cap);
    FLAGS_threads = cap;
  }
  if (FLAGS_threads > 0) omp_set_num_threads(FLAGS_threads);
  return omp_get_max_threads();
}

}  // namespace chatty::cli
