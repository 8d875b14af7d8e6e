// A run's options, parsed and checked together before anything is loaded:
// a mistake costs one error line, not minutes of loading first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/job/run_options.h"
#include "apps/job/run_pairs.h"
#include "apps/run_app.h"
#include "datasets/load.h"
#include "runtime/base/engine_options.h"
#include "runtime/cuda/gpu_plan.h"

namespace chatty::job {

enum class Reorder { kAuto, kDegree, kBfs, kNone };

struct RunSetup {
  App app = parse_app("bfs");
  BackendChoice choice;
  EngineOptions eopt;
  LoadOptions lopt;
  std::string graph;  // --graph: a file or generator spec (prepare() loads it)
  int threads = 1;
  int busy_cores = 0;  // without --threads: the cores other work held at the start, left out
  Reorder reorder = Reorder::kAuto;
  std::optional<uint64_t> source;     // input id; none: the default source
  int sources = 0;                    // random sources (GAP's -n); 0: one source
  bool all_sources = false;           // --sources=all (BC): every vertex
  std::vector<uint64_t> source_list;  // --sources=3,17,42 (BC): input ids
  PairRequest pairs;                  // a per-pair app's --pairs, --top_k, --similar_to
  int repeat = 1;
  bool validate = false, json = false, quiet = false;
  bool default_weights = true;  // SSSP on an unweighted graph
  uint64_t seed = 1;
  std::string output, trace;
  std::string switch_how;  // ranks, mpi_ring: where the small/large switch point came from
  // `chatty run` without --app or --graph: the report says it ran the defaults.
  bool default_app = false, default_graph = false;

  bool has_source() const { return app_spec(app).needs_source; }
  // auto relabels on GPU devices only: on the CPU the relabelling took
  // longer than it saved a run (PageRank, kron:20 and urand:20 to the
  // default tolerance: 1.0-1.1 s against 0.5-0.65 s without it).
  bool reorders() const {
    return reorder == Reorder::kDegree || reorder == Reorder::kBfs ||
           (reorder == Reorder::kAuto && app_spec(app).reorders && eopt.backend == Backend::kCuda);
  }
};

// Applies --threads (0: OpenMP's default) to the calling thread's teams,
// at most 4 per core (with a warning); returns the count applied.
int apply_threads(int threads);

// Without --threads or OMP_NUM_THREADS: a thread for each core of this
// process's that other work does not hold now (busy_cores_now), when some
// is busy; returns how many cores were left out (0: none).
int leave_busy_cores_out(int threads);

// Throws chatty::Error naming the option for any value that cannot work.
// Under mpirun this is where the ranks meet: every rank calls it.
RunSetup check_run_options(const RunOptions& o);

}  // namespace chatty::job
