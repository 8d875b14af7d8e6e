// Every option of `chatty run`, typed, with its default and help in one
// list: the command line's flags are made from it (apps/cli), and the
// library and the Python package set the same options by name without
// them. The names, defaults and messages are the CLI's, so an option is
// spelled, checked and refused alike everywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "datasets/load.h"
#include "runtime/base/engine_options.h"

namespace chatty::job {

const char* graph_help();
const char* format_help();

// Which calls take an option: kInput ones say how a file is read (a
// library's load takes them); a run takes every one.
enum class OptionScope { kInput, kRun };

// X(type, name, default, scope, help): type is gflags' word for it.
// clang-format off
#define CHATTY_RUN_OPTIONS(X) \
  X(string, graph, "kron:16", kRun, ::chatty::job::graph_help()) \
  X(string, format, "auto", kInput, ::chatty::job::format_help()) \
  X(string, ids, "auto", kInput, "how an edge list's ids name its vertices: auto (positions 0..max for GAP's .el/.wel and files " "opening with a vertex count; else the ids that occur, as SNAP and NetworkX count them), " "positions or occurring. DIMACS, Matrix Market and METIS are 1-based") \
  X(bool, symmetrize, false, kInput, "add the reverse of every edge (undirected graph)") \
  X(bool, undirected, false, kInput, "the graph is undirected: same as --symmetrize (Gunrock's spelling)") \
  X(bool, dedupe, true, kInput, "keep one copy of parallel edges (the lightest)") \
  X(bool, drop_self_loops, true, kInput, "drop edges from a vertex to itself") \
  X(uint64, seed, 1, kInput, "seed for generators and default SSSP weights") \
  X(int32, threads, 0, kRun, "CPU threads (0: a thread per core that no other work holds at the start)") \
  X(bool, json, false, kRun, "print one JSON object on the last line of stdout") \
  X(string, direction, "auto", kRun, "traversal direction: auto (switch by frontier size), push or pull") \
  X(double, alpha, 15.0, kRun, "BFS: go pull when frontier edges > unexplored edges / alpha") \
  X(double, beta, 18.0, kRun, "BFS: back to push when the frontier < |V| / beta") \
  X(uint64, delta, 0, kRun, "SSSP bucket width (0: chosen from the graph)") \
  X(double, tolerance, 1e-6, kRun, "PageRank, Katz, eigenvector, HITS: stop when the L1 change < tolerance") \
  X(int32, max_iters, 100, kRun, "PageRank, Katz, eigenvector, HITS: at most this many iterations")             \
  X(double, damping, 0.85, kRun, "PageRank damping factor")                                                     \
  X(double, katz_alpha, 0, kRun,                                                                                   \
    "Katz: attenuation (NetworkX's alpha), below 1 / the largest eigenvalue to converge; 0: 0.9 / the largest "      \
    "in-degree, which always is")          \
  X(double, katz_beta, 1.0, kRun, "Katz: the weight every vertex starts with (NetworkX's beta)")                         \
  X(bool, katz_normalized, true, kRun, "Katz: scale the values to unit L2 norm (NetworkX's normalized)")        \
  X(double, resolution, 1.0, kRun, "Louvain: NetworkX's resolution (below 1 favours larger communities, above 1 smaller ones)") \
  X(double, threshold, 1e-7, kRun, "Louvain: stop when a level raises modularity by no more than this (NetworkX's threshold)") \
  X(uint32, passes, 0, kRun, "Leiden: at most this many passes of levels, each from the last one's communities (0: until three " "in a row gain under 1e-5 modularity, as igraph's n_iterations=-1 until one changes nothing; igraph's default is 2)") \
  X(uint32, max_level, 0, kRun, "Louvain: at most this many levels (0: until a level gains no more than --threshold)") \
  X(bool, keep_levels, false, kRun, "Louvain, Leiden: keep the communities of every level, each what a run cut there by " "--max_level gives (--output: a column per level; NetworkX's louvain_partitions)") \
  X(string, distance_measure, "closeness", kRun,                                                                  \
    "closeness: closeness (NetworkX's closeness_centrality), harmonic (harmonic_centrality) or eccentricity") \
  X(string, similarity, "jaccard", kRun, "similarity: jaccard (|A & B| / |A | B| of the neighbourhoods, NetworkX's " "jaccard_coefficient), overlap (|A & B| / min(|A|, |B|)) or sorensen (2 |A & B| / (|A| + |B|))") \
  X(string, pairs, "", kRun, "similarity: the pairs to score, a list of input ids (3:17,4:9) or a file of two ids per line " "(default: every edge, or --top_k)") \
  X(uint32, top_k, 0, kRun, "similarity: the K most similar vertices (two hops away) of each --similar_to vertex, instead " "of pairs") \
  X(string, similar_to, "all", kRun, "similarity, --top_k: whose most similar vertices: all, or a list of input ids (3,17,42)") \
  X(string, bc_scale, "ordered", kRun, "BC: ordered (Brandes' sums: each ordered pair, so an undirected pair twice; GAP's), pairs " "(NetworkX's normalized=False: an undirected pair once, a sample scaled to all sources) or " "normalized (NetworkX's normalized=True: divided by the pairs there are)") \
  X(int32, devices, 1, kRun, "devices to split the graph over (host devices: the threads are divided between them)") \
  X(bool, numa, false, kRun, "bind device d to NUMA node d % nodes (multi-socket hosts; needs --devices > 1)") \
  X(bool, migrate, true, kRun, "host devices: a device out of work computes blocks of a busy peer's (work migration: PageRank, " "push and pull steps, WCC compression)") \
  X(uint32, migrate_block, 4, kRun, "ranks: blocks (of 1024 vertices) a device claims at a time from a busy device of another rank " "(PageRank)") \
  X(uint32, migrate_threshold, 8, kRun, "ranks: a busy device keeps its last this many blocks from other ranks") \
  X(uint32, migrate_cache_mb, 64, kRun, "ranks: MB of the fetched in-edge rows of migrated blocks a device keeps for later supersteps") \
  X(string, straggler, "", kRun, "host devices: D:US or FIRST-LAST:US makes those devices (numbered over all ranks) pause US " "microseconds before each block of their own, as if another tenant had their cores; shows work " "migration at work (--json's migrated counts)") \
  X(string, comm, "auto", kRun, "exchange transport: auto (host devices and ranks: their default; GPU devices: the topology policy's " "pick per data class and size) or a name that `chatty topo --transports` lists with the devices it " "serves") \
  X(uint64, ring_bytes, 2 << 20, kRun, "ranks, --comm=mpi_ring: bytes of each (sender, receiver) ring") \
  X(uint64, put_window_mb, 1024, kRun, "ranks, --comm=auto: mpi_put while its window (2 x local x all devices slots of |V| records) is at " "most this many MiB a rank and one-sided transfers win at 1 MB (--small_bytes), else mpi_ring") \
  X(uint64, batch_bytes, 64 << 10, kRun, "ranks, --comm=mpi_ring: the most bytes one batch carries") \
  X(int32, ring_lanes, 1, kRun, "ranks, --comm=mpi_ring: rings per device pair, one per sending thread, sharing --ring_bytes (as many " "as a device has threads where each thread has a core of its own)") \
  X(string, small_bytes, "auto", kRun, "ranks, --comm=mpi_ring: a pair's records under this many bytes a superstep go as one two-sided " "message instead of through the ring (0: always the ring); auto: the switch point measured " "between two ranks, cached per cluster; measure: measure it again") \
  X(string, net, "auto", kRun, "ranks under mpirun: what connects them: auto (ranks that all share one node reach each other's " "windows by loads and stores in shared memory, else MPI's one-sided operations), mpi (MPI's " "one-sided operations for every access, as between nodes) or verbs (rdma-core; needs an RDMA " "device, and has not yet run on one)") \
  X(string, exchange, "auto", kRun, "host devices: how records reach peers: broadcast (to every device), peer (a changed vertex only " "to the devices holding an edge to it, a push offer to its owner and those) or auto (peer between " "ranks of more than two devices in all, else broadcast); GPU devices broadcast") \
  X(string, messages, "auto", kRun, "host devices: what a PageRank vertex sends: sendall (its value once to each device that reads it, " "which expands it through its in-edges; auto) or per_edge (one message per out-edge to the " "target's owner, as Pregel without a combiner does; the baseline SendAll is measured against)") \
  X(string, app, "bfs", kRun, "app to run (the list above)") \
  X(string, source, "", kRun, "BFS/SSSP source vertex, an id of the input, 0 to 2^64-1 (default: lowest id with an out-edge)") \
  X(string, sources, "", kRun, "BFS/SSSP: run from N random sources with out-edges (from --seed), report the median and spread; " "BC: sum over N random sources, over all (every vertex: exact BC), or over a list of ids (3,17,42; " "one id with a trailing comma: 5, - a bare number is a count)") \
  X(string, backend, "auto", kRun, "auto (the GPUs if any is usable, else the CPU), cuda or cpu") \
  X(string, gpu_lb, "split", kRun, "GPU push load balance: split (twc, hubs' edges shared by every block), twc (thread/warp/block per " "vertex by degree) or lb (edge-balanced per block)") \
  X(string, gpu_bucket_min, "warp", kRun, "GPU SSSP lowest-bucket minimum: warp (one atomic per warp) or thread (one per thread)") \
  X(string, gpu_tc, "rows", kRun, "GPU triangle counting: rows (a warp per row, its hits counted in shared memory) or entries (a " "thread per list entry, an atomic per hit)") \
  X(string, gpu_gather, "tiled", kRun, "GPU PageRank gather: tiled (equal tiles of rows + edges), groups (one lane count per chunk, a block " "per hub), binned (by in-degree: lanes, a warp, hubs split over blocks) or streamed (tiled, the edges " "read evict-first to keep the contributions in L2)") \
  X(int32, gpu_steps_per_sync, 16, kRun, "one GPU device: on long runs of thin push supersteps (grids, roads), queue this many supersteps " "before the host reads their status (BFS, label propagation)") \
  X(uint64, gpu_wave, 0, kRun, "one GPU device: run supersteps whose frontier has at most this many vertices (BFS, WCC) or that " "improved at most this many (SSSP) as waves, up to 1024 levels in one cooperative launch; 0: never") \
  X(uint64, cpu_wave, 4096, kRun, "one CPU device: run push supersteps whose frontier has at most this many vertices (BFS, label " "propagation) as waves, levels apart by a barrier of the threads, up to 1024 levels; 0: never") \
  X(string, cpu_gather, "auto", kRun, "one CPU device, PageRank and Katz: gather over rows of in-edges (rows), over the edges laid " "out again in tiles whose random reads stay in a core's L2 (tiles; a second copy of the edges, built in " "about 2.5 supersteps' time), or tiles once the remaining supersteps repay them on graphs whose in-edges " "come from far-off ids (auto)") \
  X(int32, repeat, 1, kRun, "run the app this many times on the loaded graph and report the median") \
  X(bool, validate, false, kRun, "check the result against the sequential reference, and the graph against a second, independent " "reading of the file") \
  X(string, output, "", kRun, "write 'id value' per vertex to this file") \
  X(string, reorder, "auto", kRun, "relabel vertices before running: auto (by degree for pr, katz and eigenvector on GPU devices; none on " "the CPU, where relabelling costs more than a run saves), degree, bfs (breadth-first order: neighbours " "get nearby ids) or none; results and --source use the input's ids") \
  X(string, trace, "", kRun, "write per-superstep statistics of the last run to this CSV file") \
  X(bool, no_default_weights, false, kRun, "SSSP: do not add weights 1..255 to an unweighted graph (error instead)") \
  X(double, rank_timeout, 60, kRun, "ranks: end the job when a rank shows no sign of life for this many seconds (stopped, hung); 0: " "never") \
  X(bool, quiet, false, kRun, "print nothing but the JSON line (with --json); the exit code still tells")
// clang-format on

using option_bool = bool;
using option_int32 = int32_t;
using option_uint32 = uint32_t;
using option_uint64 = uint64_t;
using option_double = double;
using option_string = std::string;

struct RunOptions {
#define CHATTY_OPTION_FIELD(type, name, value, scope, help) option_##type name = value;
  CHATTY_RUN_OPTIONS(CHATTY_OPTION_FIELD)
#undef CHATTY_OPTION_FIELD
  // The options set by the caller, even to their default: a flag given
  // must apply (--source for an app without one is refused).
  std::set<std::string> given;
  // The library's alone (no flag: a launcher's ranks are MPI_COMM_WORLD):
  // the MPI communicator, as its Fortran handle (MPI_Comm_c2f), whose
  // processes are the run's ranks (cpu_cluster/cluster.h's cluster_start).
  std::optional<int> communicator;

  bool was_given(const std::string& name) const { return given.count(name) > 0; }
};

struct OptionInfo {
  const char* name;
  const char* type;  // "bool", "int32", "uint32", "uint64", "double", "string"
  OptionScope scope;
  const char* help;
};

// Every option, in the list's order.
const std::vector<OptionInfo>& run_option_table();
const OptionInfo* find_option(const std::string& name);

// Sets option `name` from its text as a command line writes it (a bool:
// true/false/1/0/yes/no). Throws UsageError with the CLI's line for an
// unknown name (with the nearest), a value not of its type, or an option
// `scope` does not take.
void set_option(RunOptions& o, const std::string& name, const std::string& value,
                OptionScope scope = OptionScope::kRun);
// "--name=value", "--name" (a bool: true) or "--noname" (false), in order.
RunOptions parse_options(const std::vector<std::string>& args, OptionScope scope = OptionScope::kRun);
// The option's value as text (ranks compare these).
std::string option_text(const RunOptions& o, const std::string& name);

// A vertex id as the user's file writes it (--source, --sources,
// --pairs): any unsigned 64-bit integer, nothing else in the text.
std::optional<uint64_t> parse_id(const std::string& text);

// What a value of `type` must be, said to a user ("a whole number").
const char* option_takes(const std::string& type);
// The name of `names` nearest `name` by edit distance ("" if none is near).
std::string nearest_name(const std::string& name, const std::vector<std::string>& names);

// The load options (--format, --ids, --symmetrize/--undirected, --dedupe,
// --drop_self_loops, --seed) and engine options (--threads, --direction,
// ...) of o, checked: throws chatty::Error naming the option.
LoadOptions load_options(const RunOptions& o);
EngineOptions engine_options(const RunOptions& o);

}  // namespace chatty::job
