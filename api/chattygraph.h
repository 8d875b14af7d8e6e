// ChattyGraph as a library: load a graph (or make one from CSR arrays),
// run an app on it with typed options, and get its values by vertex, the
// input's id of every vertex and the run's statistics. A run takes the
// checks, pipeline and messages of `chatty run`, whose flags these options
// are; an option that cannot work throws UsageError with the CLI's line.
// Several threads may run at once, on different graphs or on one.
//
//   #include <chattygraph/chattygraph.h>
//   chattygraph::Graph g = chattygraph::Graph::load("facebook_combined.txt");
//   chattygraph::Options o;
//   o.source = 107;
//   chattygraph::Result r = chattygraph::run(g, "bfs", o);   // r.ints[v], r.ids[v], r.stats
//
// Link: find_package(ChattyGraph) and target_link_libraries(... ChattyGraph::chattygraph).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "apps/job/run_stats.h"
#include "runtime/base/status.h"

namespace chattygraph {

// Every error is a chatty::Error with one line; a UsageError for options.
using Error = chatty::Error;
using UsageError = chatty::UsageError;
// A run's statistics (times, iterations, GTEPS, convergence, validation).
using Stats = chatty::job::RunStats;

// How a file is read (`chatty run`'s input flags).
struct LoadOptions {
  bool undirected = false;         // --undirected: every edge both ways
  std::string format;              // --format: "" (auto), el, gr, mtx, metis, cgr
  std::string ids;                 // --ids: "" (auto), positions, occurring
  std::vector<std::string> flags;  // any other input flag, "--name=value"
};

class Graph {
 public:
  // A file (any format `chatty` reads, compressed or not) or a generator
  // spec ("kron:16", "grid:100x100"). Throws Error naming the input.
  static Graph load(const std::string& what, const LoadOptions& opt = {});
  // Edges src[i] -> dst[i] over vertices 0..n-1 (weights: one per edge,
  // whole numbers, or empty); undirected unless `directed` (each edge both
  // ways); `ids`: the caller's id of each vertex (empty: 0..n-1).
  static Graph from_edges(std::vector<uint32_t> src, std::vector<uint32_t> dst, uint64_t n, bool directed,
                          std::vector<uint32_t> weights = {}, std::vector<uint64_t> ids = {});

  // A CSR: row v's edges are indices[indptr[v] .. indptr[v+1]) (n + 1
  // offsets, from 0 to indices.size()), weights one per index or empty.
  // The arrays are kept, not copied, where rows are sorted; an undirected
  // CSR (directed false) that lacks an edge's reverse is symmetrized.
  // Throws Error naming the first bad offset or index.
  static Graph from_csr(std::vector<uint64_t> indptr, std::vector<uint32_t> indices, bool directed,
                        std::vector<uint32_t> weights = {}, std::vector<uint64_t> ids = {});

  uint64_t vertices() const;
  uint64_t edges() const;  // stored: an undirected edge counts twice
  bool directed() const;
  uint64_t id_of(uint64_t v) const;  // the input's id of vertex v (0..vertices()-1)

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  std::shared_ptr<Impl> impl_;
};

// A run's options: unset ones take `chatty run`'s defaults (`chatty help run`).
struct Options {
  std::string backend;                // "auto" (unset), "cpu" or "cuda"
  std::optional<int> devices;         // --devices
  std::optional<int> threads;         // --threads (0: OpenMP's default)
  std::optional<uint64_t> source;     // --source: an input id
  std::vector<uint64_t> sources;      // --sources: these input ids (BC sums over them)
  std::optional<int> random_sources;  // --sources=N: N random ones
  std::optional<double> tolerance;    // --tolerance (PageRank)
  std::optional<int> max_iters;       // --max_iters
  std::optional<double> damping;      // --damping (PageRank)
  std::optional<uint64_t> delta;      // --delta (SSSP's bucket width; 0: chosen)
  std::optional<uint64_t> seed;       // --seed
  bool validate = false;              // --validate: against the sequential reference
  // The ranks: the processes of this MPI communicator, as its Fortran
  // handle (chattygraph/mpi.h's communicator(MPI_Comm)), each calling
  // run() with the same graph and options. The program initialises MPI
  // (MPI_THREAD_MULTIPLE) and finalises it; a process's runs all use one
  // communicator. Unset: the launcher's ranks under mpirun, else one process.
  std::optional<int> communicator;
  std::vector<std::string> flags;  // any other of `chatty run`'s flags, "--name=value"
};

struct Result {
  std::string app;
  // The values by vertex, in the one array the app fills: ints (depth,
  // distance, label, coreness; 0xFFFFFFFF unreached), reals (PageRank, BC)
  // or counts (triangles).
  std::vector<uint32_t> ints;
  std::vector<float> reals;
  std::vector<float> second;  // a second real per vertex where the app has one (HITS: authorities)
  std::vector<uint64_t> counts;
  std::vector<uint64_t> ids;  // the input's id of each vertex
  // An app with a value per pair of vertices (similarity, ktruss): the
  // pairs as positions (ids[u] is u's input id), and their values in
  // `scores` (similarity) or `ints` (truss numbers), one per pair.
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  std::vector<double> scores;
  Stats stats;
  bool validated = false;  // with validate: the answer matched the reference
  std::string json;        // the statistics and more, as `chatty run --json` prints them
  int exit_code = 0;       // as the CLI's: 0, 3 (validation failed), 4 (not converged)
};

// Runs `app` (a name `chatty run --app` takes) on g.
Result run(const Graph& g, const std::string& app, const Options& opt = {});

}  // namespace chattygraph
