#include "apps/job/run_pipeline.h"

#include <omp.h>

#include <algorithm>
#include <random>

#include "apps/job/rank_graph.h"
#include "cpu_cluster/cluster.h"
#include "runtime/base/memory.h"
#include "runtime/base/status.h"
#include "runtime/base/warm_heap.h"
#include "runtime/engine/exchange_policy.h"
#include "runtime/graph/reorder.h"

namespace chatty::job {
namespace {

// Who reads each vertex, where the run may exchange per peer (union-find
// WCC broadcasts whatever the flag says: it then goes unused). A rank reads
// the rows it holds, and the ranks OR their marks.
void mark_readers(const RunSetup& s, const Graph& g, Partition& part, const ClusterPlace* rank) {
  const bool ranks = rank && rank->ranks > 1;
  if (s.eopt.backend != Backend::kCpu || !exchange_per_peer(s.eopt.exchange, false, part.devices(), ranks)) return;
  part.readers_out_only = app_spec(s.app).messages.out_readers_only;
  part.readers = reader_masks(g, part, part.readers_out_only, g.rows_lo(), g.rows_hi());
  if (ranks) cluster_or(part.readers.data(), part.readers.size() * sizeof(uint64_t));
}

// The CPU runs' working arrays (labels, frontiers, queues: BFS takes 25
// bytes a vertex) on pages backed now, while the graph is prepared, not in
// the timed runs (warm_heap.h): GAP's kernels run on the pages its builder
// wrote and freed. Only where the process keeps freed memory (the CLI);
// elsewhere the pages would go back to the system when freed.
void warm_run_memory(const RunSetup& s, const Graph& g) {
  if (s.eopt.backend != Backend::kCpu || !freed_memory_kept()) return;
  const uint64_t bytes = std::min({uint64_t(32) * g.num_vertices(), uint64_t(256) << 20, available_memory() / 8});
  warm_heap(bytes, bytes / 8);
}

// As one of several ranks: only this rank's rows (the whole graph for an
// app whose ranks split the work), chunk cuts made before loading them,
// relabelling within chunks, boundary marks combined across ranks; with
// --validate, rank 0 also loads the whole graph.
// `load` gives this rank's RankGraph (filling the LoadInfo) and `whole`
// the whole graph in input ids, which rank 0 validates against.
template <typename Load, typename Whole>
Prepared prepare_rank(const RunSetup& s, const ClusterPlace& rank, std::string name, std::string path, Load&& load,
                      Whole&& whole) {
  Prepared p;
  p.name = std::move(name);
  p.path = std::move(path);
  double t0 = omp_get_wtime();
  const AppSpec& app = app_spec(s.app);
  // Every stretch between collectives agrees on its errors (rank_graph.h).
  RankGraph rg;
  agreed([&] { rg = load(&p.info); });
  // Ranks that loaded different graphs (a stale copy on one node) would
  // exchange nonsense: they agree on what they hold first.
  const std::vector<int> differ = cluster_ranks_differing(rg.fingerprint);
  if (!differ.empty()) {
    // The same line on every rank; rank 0 prints it.
    throw AgreedError(
        ranks_named(differ) +
        " loaded a different graph from rank 0's (|V|, |E|, degrees, edges, weights or ids differ): every rank must "
        "read the same file (a shared file system, or identical copies)");
  }
  agreed([&] {
    p.g = std::move(rg.g);
    p.weights_made = add_default_weights(s.app, p.g, s.default_weights, s.seed);  // on input ids, as in one process
    if (s.reorders()) {  // within chunks: every rank derives the same ids from the degrees alone
      CHATTY_CHECK(s.reorder != Reorder::kBfs,
                   "--reorder=bfs needs every row of the graph, which ranks split: use --reorder=degree");
      const double r0 = omp_get_wtime();
      Reordered r = reorder_by_degree(p.g, rg.bounds);
      p.g = std::move(r.graph);
      p.old_of_new = std::move(r.old_of_new);
      p.new_of_old = std::move(r.new_of_old);
      p.reorder_s = omp_get_wtime() - r0;
    }
    prepare_graph(s.app, p.g, s.default_weights, s.seed);
    if (s.validate && app.whole_graph && !s.reorders()) {
      p.input = p.g;
    } else if (s.validate) {
      p.input = whole();
      prepare_graph(s.app, p.input, s.default_weights, s.seed);
    }
    warm_run_memory(s, p.g);
    p.load_s = omp_get_wtime() - t0;
    t0 = omp_get_wtime();
    p.part = std::make_unique<Partition>(partition_at(p.g, std::move(rg.bounds), p.g.rows_lo(), p.g.rows_hi()));
  });
  cluster_or(p.part->boundary.data(), p.part->boundary.size());
  agreed([&] { p.part->list_boundary(); });
  mark_readers(s, p.g, *p.part, &rank);
  p.partition_s = omp_get_wtime() - t0;
  return p;
}

}  // namespace

Prepared prepare_loaded(const RunSetup& s, Graph g, LoadInfo info, std::string name, std::string path) {
  CHATTY_CHECK(g.num_vertices() > 0, name + ": the graph has no vertices, nothing to run on");
  Prepared p;
  p.g = std::move(g);
  p.info = std::move(info);
  p.name = std::move(name);
  p.path = std::move(path);
  // Partitioning is part of setting up the devices, not of the run. The
  // chunks are chosen on the input's ids (F depends only on each chunk's
  // vertices and edges, which relabelling within chunks keeps).
  double t0 = omp_get_wtime();
  if (s.eopt.devices > 1) p.part = std::make_unique<Partition>(partition_graph(p.g, s.eopt.devices));
  p.partition_s = omp_get_wtime() - t0;
  // Relabelling is graph preparation (like building in-edges): outside the
  // timed runs, and invisible in results, which use the input's ids.
  t0 = omp_get_wtime();
  // Default SSSP weights hash the input's ids, so they are made first and
  // travel with their edges.
  p.weights_made = add_default_weights(s.app, p.g, s.default_weights, s.seed);
  if (s.reorders()) {
    const double r0 = omp_get_wtime();
    const std::vector<vid_t> chunks = p.part ? p.part->bounds : std::vector<vid_t>{};
    Reordered r = s.reorder == Reorder::kBfs ? reorder_by_bfs(p.g, chunks) : reorder_by_degree(p.g, chunks);
    if (s.validate) p.input = p.g;
    p.g = std::move(r.graph);
    p.old_of_new = std::move(r.old_of_new);
    p.new_of_old = std::move(r.new_of_old);
    p.reorder_s = omp_get_wtime() - r0;
  }
  prepare_graph(s.app, p.g, s.default_weights, s.seed);
  warm_run_memory(s, p.g);
  p.load_s = omp_get_wtime() - t0;
  t0 = omp_get_wtime();
  if (p.part && !p.old_of_new.empty())  // the same chunks; their boundary vertices have new ids
    *p.part = partition_at(p.g, p.part->bounds);
  if (p.part) mark_readers(s, p.g, *p.part, cluster());
  p.partition_s += omp_get_wtime() - t0;
  return p;
}

Prepared prepare_held(const RunSetup& s, const Graph& g, const LoadInfo& info, std::string name, std::string path,
                      const LoadOptions& read_with) {
  const ClusterPlace* c = cluster();
  Prepared p;
  if (!c || c->ranks == 1) {
    p = prepare_loaded(s, g, info, std::move(name), std::move(path));
    p.read_with = read_with;
    return p;
  }
  const bool whole = app_spec(s.app).whole_graph;
  const std::string what = name;
  p = prepare_rank(
      s, *c, std::move(name), std::move(path),
      [&](LoadInfo* mine) {
        *mine = info;
        return whole ? whole_graph_of(g, mine, *c, what, false)
                     : rank_rows_of(g, mine, *c, app_spec(s.app).needs_in_edges, what);
      },
      [&] { return g; });
  p.read_with = read_with;
  return p;
}

Prepared prepare(const RunSetup& s) {
  if (const ClusterPlace* c = cluster(); c && c->ranks > 1) {
    const AppSpec& app = app_spec(s.app);
    Prepared p = prepare_rank(
        s, *c, s.graph, s.graph,
        [&](LoadInfo* info) {
          return app.whole_graph ? load_whole_graph(s.graph, s.lopt, *c, info)
                                 : load_rank_graph(s.graph, s.lopt, *c, app.needs_in_edges, info);
        },
        [&] { return load_graph(s.graph, s.lopt); });
    p.read_with = s.lopt;
    return p;
  }
  const double t0 = omp_get_wtime();
  LoadInfo info;
  Graph g = load_graph(s.graph, s.lopt, &info);
  const double load_s = omp_get_wtime() - t0;
  Prepared p = prepare_loaded(s, std::move(g), std::move(info), s.graph, s.graph);
  p.load_s += load_s;
  p.read_with = s.lopt;
  return p;
}

std::vector<vid_t> choose_sources(const RunSetup& s, const Prepared& p) {
  if (!s.has_source()) return {0};
  const vid_t n = p.g.num_vertices();
  if (s.source) {  // in the input's ids
    const std::optional<vid_t> v = p.info.ids.find(*s.source, n);
    CHATTY_CHECK(v.has_value(), "--source=" + std::to_string(*s.source) + " is not a vertex of " + p.name +
                                    " (its ids: " + p.info.ids.describe(n) + ")");
    return {*v};
  }
  if (s.all_sources) {  // every vertex, as exact BC (NetworkX's default) sums over
    std::vector<vid_t> all(n);
    for (vid_t v = 0; v < n; ++v) all[v] = v;
    return all;
  }
  if (!s.source_list.empty()) {
    std::vector<vid_t> listed;
    for (uint64_t id : s.source_list) {
      const std::optional<vid_t> v = p.info.ids.find(id, n);
      CHATTY_CHECK(v.has_value(), "--sources: " + std::to_string(id) + " is not a vertex of " + p.name +
                                      " (its ids: " + p.info.ids.describe(n) + ")");
      listed.push_back(*v);
    }
    return listed;
  }
  std::vector<vid_t> with_edges;
  for (vid_t v = 0; v < n; ++v)
    if (p.input_out_degree(v) > 0) with_edges.push_back(v);
  if (s.sources == 0) return {with_edges.empty() ? 0 : with_edges.front()};
  CHATTY_CHECK(size_t(s.sources) <= with_edges.size(), "--sources=" + std::to_string(s.sources) +
                                                           ": the graph has only " + std::to_string(with_edges.size()) +
                                                           " vertices with out-edges");
  std::mt19937_64 rng(s.seed);
  std::shuffle(with_edges.begin(), with_edges.end(), rng);
  with_edges.resize(size_t(s.sources));
  return with_edges;
}

}  // namespace chatty::job
