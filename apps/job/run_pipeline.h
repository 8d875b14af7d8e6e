// The graph a run is given, made ready for it: loaded (a file, a generator,
// or this rank's rows), relabelled, weighted and partitioned outside the
// timed region; and the sources it starts from. Used by `chatty run` and by
// the Python package (which hands over graphs already in memory).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "apps/job/run_setup.h"
#include "datasets/load.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/partition.h"

namespace chatty::job {

// The graph as the run sees it, and the way back to the input's ids.
struct Prepared {
  Graph g;
  Graph input;  // the whole graph in input ids, kept only to validate a relabelled run or a rank's rows
  std::vector<vid_t> old_of_new, new_of_old;
  std::unique_ptr<Partition> part;
  double load_s = 0, partition_s = 0;
  double reorder_s = 0;  // of load_s, relabelling (--reorder): the run's price for its faster kernel
  LoadInfo info;
  bool weights_made = false;  // SSSP's deterministic weights on a file without them
  std::string name;           // what reports call the graph (--graph's value)
  std::string path;           // what --validate reads a second time ("" for a graph made in memory)
  LoadOptions read_with;      // how `path` was read, and is read again

  // `input_id` here is the loader's numbering 0..n-1; info.ids maps it to
  // the ids the user wrote.
  vid_t to_run(vid_t input_id) const { return new_of_old.empty() ? input_id : new_of_old[input_id]; }
  eid_t input_out_degree(vid_t input_id) const { return g.out_degree(to_run(input_id)); }
};

// Loads --graph (as a rank, its rows only) and prepares it for s. Throws
// chatty::Error; as a rank, every rank throws the same AgreedError.
Prepared prepare(const RunSetup& s);

// Prepares a graph this process holds whole (a library's): as one of
// several ranks, this rank's rows of it, as prepare() keeps of a file;
// else prepare_loaded. Every rank must hold the same graph (they agree on
// it first, as on a file).
// `read_with`: how `path` was read (the library's load options, not the run's).
Prepared prepare_held(const RunSetup& s, const Graph& g, const LoadInfo& info, std::string name, std::string path,
                      const LoadOptions& read_with);

// Prepares a graph already loaded in this process (one process, no ranks).
// `g` shares its edges with the caller's graph: weights and in-edges made
// for the run are the run's own.
Prepared prepare_loaded(const RunSetup& s, Graph g, LoadInfo info, std::string name, std::string path);

// The sources in the loader's numbering: --source (an input id), N random
// ones with out-edges (GAP's -n, from --seed), or the lowest id with an
// out-edge; {0} for apps without a source. Throws chatty::Error naming the
// graph's ids for a source that is not one of them.
std::vector<vid_t> choose_sources(const RunSetup& s, const Prepared& p);

}  // namespace chatty::job
