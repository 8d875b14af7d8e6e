// `chatty run`: load a graph, run an app --repeat times (from each of
// --sources random sources), report the median, a summary of the result,
// and the run's statistics.
#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <memory>
#include <random>

#include "apps/cli/commands.h"
#include "apps/cli/flags.h"
#include "apps/cli/rank_graph.h"
#include "apps/cli/run_report.h"
#include "apps/cli/run_setup.h"
#include "comm/cluster.h"
#include "datasets/second_reading.h"
#include "runtime/exchange_policy.h"
#include "runtime/reorder.h"
#include "runtime/status.h"

namespace chatty::cli {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The graph as the run sees it, and the way back to the input's ids.
struct Prepared {
  Graph g;
  Graph input;  // the whole graph in input ids, kept only to validate a relabelled run or a rank's rows
  std::vector<vid_t> old_of_new, new_of_old;
  std::unique_ptr<Partition> part;
  double load_s = 0, partition_s = 0;
  LoadInfo info;
  bool weights_made = false;  // SSSP's deterministic weights on a file without them

  // `input_id` here is the loader's numbering 0..n-1; info.ids maps it to
  // the ids the user wrote.
  vid_t to_run(vid_t input_id) const { return new_of_old.empty() ? input_id : new_of_old[input_id]; }
  eid_t input_out_degree(vid_t input_id) const { return g.out_degree(to_run(input_id)); }
};

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

// As one of several ranks: only this rank's rows, chunk cuts made before
// loading them, relabelling within chunks, boundary marks combined across
// ranks; with --validate, rank 0 also loads the whole graph.
Prepared prepare_rank(const RunSetup& s, const ClusterPlace& rank) {
  Prepared p;
  double t0 = omp_get_wtime();
  const AppSpec& app = app_spec(s.app);
  // Every stretch between collectives agrees on its errors (rank_graph.h).
  RankGraph rg;
  agreed([&] { rg = load_rank_graph(FLAGS_graph, s.lopt, rank, app.needs_in_edges, &p.info); });
  // Ranks that loaded different graphs (a stale copy on one node) would
  // exchange nonsense: they agree on what they hold first.
  const std::vector<int> differ = cluster_ranks_differing(rg.fingerprint);
  if (!differ.empty()) {
    std::string which;
    for (int r : differ) which += (which.empty() ? "" : ", ") + std::to_string(r);
    // The same line on every rank; rank 0 prints it.
    throw AgreedError("rank" + std::string(differ.size() > 1 ? "s " : " ") + which +
                      " loaded a different graph from rank 0's (|V|, |E|, degrees or edges differ): every rank must "
                      "read the same file (a shared file system, or identical copies)");
  }
  agreed([&] {
    p.g = std::move(rg.g);
    p.weights_made = add_default_weights(s.app, p.g, s.default_weights, s.seed);  // on input ids, as in one process
    if (s.reorders()) {  // within chunks: every rank derives the same ids from the degrees alone
      Reordered r = reorder_by_degree(p.g, rg.bounds);
      p.g = std::move(r.graph);
      p.old_of_new = std::move(r.old_of_new);
      p.new_of_old = std::move(r.new_of_old);
    }
    prepare_graph(s.app, p.g, s.default_weights, s.seed);
    if (s.validate) {
      p.input = load_graph(FLAGS_graph, s.lopt);
      prepare_graph(s.app, p.input, s.default_weights, s.seed);
    }
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

Prepared prepare(const RunSetup& s) {
  if (const ClusterPlace* c = cluster(); c && c->ranks > 1) return prepare_rank(s, *c);
  Prepared p;
  double t0 = omp_get_wtime();
  p.g = load_graph(FLAGS_graph, s.lopt, &p.info);
  p.load_s = omp_get_wtime() - t0;
  // Partitioning is part of setting up the devices, not of the run. The
  // chunks are chosen on the input's ids (F depends only on each chunk's
  // vertices and edges, which relabelling within chunks keeps).
  t0 = omp_get_wtime();
  if (s.eopt.devices > 1) p.part = std::make_unique<Partition>(partition_graph(p.g, s.eopt.devices));
  p.partition_s = omp_get_wtime() - t0;
  // Relabelling is graph preparation (like building in-edges): outside the
  // timed runs, and invisible in results, which use the input's ids.
  t0 = omp_get_wtime();
  // Default SSSP weights hash the input's ids, so they are made first and
  // travel with their edges.
  p.weights_made = add_default_weights(s.app, p.g, s.default_weights, s.seed);
  if (s.reorders()) {
    Reordered r = reorder_by_degree(p.g, p.part ? p.part->bounds : std::vector<vid_t>{});
    if (s.validate) p.input = p.g;
    p.g = std::move(r.graph);
    p.old_of_new = std::move(r.old_of_new);
    p.new_of_old = std::move(r.new_of_old);
  }
  prepare_graph(s.app, p.g, s.default_weights, s.seed);
  p.load_s += omp_get_wtime() - t0;
  t0 = omp_get_wtime();
  if (p.part && !p.old_of_new.empty())  // the same chunks; their boundary vertices have new ids
    *p.part = partition_at(p.g, p.part->bounds);
  if (p.part) mark_readers(s, p.g, *p.part, cluster());
  p.partition_s += omp_get_wtime() - t0;
  return p;
}

// --validate's check of the reading itself: the file read again by an
// independent parser must give the graph the run was given, in the input's
// ids. Returns a note for a PASS line, or the failure.
Validation check_reading(const RunSetup& s, const Graph& input, const VertexIds& ids) {
  std::string why;
  if (!can_read_again(FLAGS_graph, &why))
    return {true, FLAGS_graph.find(':') != std::string::npos && why.rfind("a generated", 0) == 0
                      ? ""
                      : "; the file is not read a second time (" + why + ")"};
  const SecondReading r = read_again(FLAGS_graph, s.lopt);
  const std::string diff = compare_with_reading(input, ids, r);
  if (!diff.empty()) return {false, "FAIL: the graph differs from a second, independent reading of the file: " + diff};
  return {true, "; a second, independent reading of the file gives the same " + std::to_string(r.ids.size()) +
                    " vertices and " + std::to_string(r.edges.size()) + " edges"};
}

// The sources in input ids: --source, N random ones with out-edges (GAP's
// -n, from --seed), or the lowest id with an out-edge.
std::vector<vid_t> choose_sources(const RunSetup& s, const Prepared& p) {
  if (!s.has_source()) return {0};
  const vid_t n = p.g.num_vertices();
  if (s.source >= 0) {  // in the input's ids
    const std::optional<vid_t> v = p.info.ids.find(uint64_t(s.source), n);
    CHATTY_CHECK(v.has_value(), "--source=" + std::to_string(s.source) + " is not a vertex of " + FLAGS_graph +
                                    " (its ids: " + p.info.ids.describe(n) + ")");
    return {*v};
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

// Edges whose rows this process holds (a rank's own, or all).
uint64_t held_edges(const Graph& g) { return g.out().offsets[g.rows_hi()] - g.out().offsets[g.rows_lo()]; }

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

// Every rank's `mine`, on rank 0 (a collective); one entry without ranks.
std::vector<double> per_rank(double mine, const ClusterPlace* c) {
  const int R = c ? c->ranks : 1;
  std::vector<double> all(size_t(R), 0.0);
  all[size_t(c ? c->rank : 0)] = mine;
  std::vector<uint64_t> begin(size_t(R) + 1);
  for (int r = 0; r <= R; ++r) begin[size_t(r)] = uint64_t(r);
  if (c) cluster_gather(all.data(), sizeof(double), begin.data());
  return all;
}

std::string list(const std::vector<double>& v, const char* fmt) {
  std::string t;
  char b[64];
  for (double x : v) {
    std::snprintf(b, sizeof b, fmt, x);
    if (!t.empty()) t += ' ';
    t += b;
  }
  return t;
}

// Where the edge weights come from: the file, SSSP's generated ones, or none.
const char* weights_of(const Prepared& p) {
  if (p.weights_made) return "generated";
  return p.g.weighted() ? "file" : p.info.weights_dropped ? "ignored" : "none";
}

std::string graph_line(const Prepared& p) {
  const Graph& g = p.g;
  std::string why = p.info.direction_reason.empty() ? "" : ": " + p.info.direction_reason;
  std::string what = p.info.format + (p.info.compression.empty() ? "" : ", " + p.info.compression);
  std::string weights = p.weights_made           ? "weights 1..255 generated from --seed"
                        : g.weighted()           ? "weighted"
                        : p.info.weights_dropped ? "weights ignored"
                                                 : "unweighted";
  return FLAGS_graph + ": " + std::to_string(g.num_vertices()) + " vertices, " + std::to_string(g.num_edges()) +
         " edges (" + (g.directed() ? "directed" : "undirected") + why + "; " + weights + "; " + what + "; ids " +
         p.info.ids.name() + ": " + p.info.ids.describe(g.num_vertices()) + ")";
}

}  // namespace

int cmd_run(const std::vector<std::string>& args) {
  CHATTY_CHECK(args.empty(), "run: unexpected argument '" + (args.empty() ? "" : args[0]) + "' (use --graph=...)");
  const RunSetup s = check_run_flags();
  Report r(s.json, s.quiet);
  // As a rank, a failure here may be this rank's alone (memory, a file
  // it cannot read): every rank learns of it before any waits for the others.
  Prepared p;
  std::vector<vid_t> sources;
  std::string failed;
  try {
    p = prepare(s);
    sources = choose_sources(s, p);
  } catch (const Error& e) {
    failed = e.what();
  }
  cluster_throw_agreed(failed);
  const Graph& g = p.g;
  const char* backend = backend_name(s.eopt.backend);

  r.say("graph       %s\n", graph_line(p).c_str());
  r.say("load        %.3f s\n", p.load_s);
  r.say("backend     %s\n", s.choice.reason.c_str());
  std::string from;
  if (s.has_source())
    from = sources.size() > 1 ? " from " + std::to_string(sources.size()) + " random sources"
                              : " from " + std::to_string(p.info.ids.of(sources[0]));
  r.say("app         %s%s on %s backend, %d device%s, %d threads\n", app_name(s.app), from.c_str(), backend,
        s.eopt.devices, s.eopt.devices > 1 ? "s" : "", s.threads);
  // The verbs path is not built: ranks use MPI, and say whether RDMA was there.
  const RdmaProbe rdma = cluster() ? probe_rdma() : RdmaProbe{};
  const std::string fabric = rdma.devices.empty() ? "MPI (no RDMA: " + rdma.reason + ")"
                                                  : "MPI (RDMA devices " + rdma.devices + " unused: no verbs path yet)";
  if (const ClusterPlace* c = cluster())
    r.say("cluster     %d ranks x %d device%s, over %s\n", c->ranks, c->local, c->local > 1 ? "s" : "", fabric.c_str());
  if (!s.switch_how.empty())
    r.say("switch      records under %zu bytes a pair and superstep go two-sided (%s)\n", s.eopt.small_bytes,
          s.switch_how.c_str());
  const GpuRingPlacement rings =
      cluster() && s.choice.backend == Backend::kCuda ? place_gpu_rings(rdma, s.eopt.net) : GpuRingPlacement{};
  if (!rings.where.empty()) r.say("gpu rings   %s: %s\n", rings.where.c_str(), rings.why.c_str());
  if (p.part) r.say("partition   %.3f s (%d chunks)\n", p.partition_s, s.eopt.devices);

  std::vector<double> times, source_times;
  AppOutput out;
  std::string validated = s.validate ? "pass" : "skipped", validation_message;
  for (vid_t src : sources) {
    std::vector<double> t;
    for (int k = 0; k < s.repeat; ++k) {
      out = run_app(s.app, g, p.to_run(src), s.eopt, p.part.get());
      t.push_back(out.seconds);
      times.push_back(out.seconds);
    }
    source_times.push_back(median(t));
    if (s.validate && validated == "pass") {
      // On the input's ids and graph, so that the relabelling is checked too.
      AppOutput checked = in_input_ids(out, p.old_of_new);
      checked.ids = &p.info.ids;  // messages name vertices as the input does
      Validation v = validate_app(checked, p.input.num_vertices() ? p.input : g, src, s.eopt);
      validation_message = v.message;
      if (!v.ok) {
        validated = "fail";
        if (sources.size() > 1)
          validation_message = "from source " + std::to_string(p.info.ids.of(src)) + ": " + v.message;
      }
    }
  }
  if (s.validate && validated == "pass" && (!cluster() || cluster()->rank == 0)) {
    const Validation v = check_reading(s, p.input.num_vertices() ? p.input : g, p.info.ids);
    validation_message = v.ok ? validation_message + v.message : v.message;
    if (!v.ok) validated = "fail";
  }
  const double compute_s = median(source_times);
  AppOutput result = in_input_ids(out, p.old_of_new);
  result.ids = &p.info.ids;
  const bool multi = p.part || out.backend == Backend::kCuda;  // exchange and time split are worth a line
  const uint64_t edges = traversed_edges(out, g);
  const double gteps = compute_s > 0 ? double(edges) / compute_s / 1e9 : 0;
  if (sources.size() > 1)
    r.say("compute     %.4f s (median over %zu sources; min %.4f s, max %.4f s)\n", compute_s, sources.size(),
          *std::min_element(source_times.begin(), source_times.end()),
          *std::max_element(source_times.begin(), source_times.end()));
  else
    r.say("compute     %.4f s%s\n", compute_s,
          s.repeat > 1 ? (" (median of " + std::to_string(s.repeat) + ")").c_str() : "");
  const int iterations = int(out.multi.supersteps());
  r.say("iterations  %d\n", iterations);
  if (multi) report_multi(r, out);
  r.say("GTEPS       %.3f\n", gteps);
  const AppSpec& spec = app_spec(s.app);
  // A gather stopped by --max_iters is not an answer to the tolerance asked.
  // Ranks are 4-byte floats summing to 1: rounding alone moves them by up to
  // about 2^-23 in all, so a smaller tolerance may never be met.
  constexpr double kRankResolution = 0x1p-23;
  char not_converged[240] = "";
  if (!out.multi.converged)
    std::snprintf(not_converged, sizeof not_converged,
                  "; not converged after %d iterations (change %.3g > tolerance %.3g%s)", iterations,
                  out.multi.last_change, s.eopt.tolerance,
                  s.eopt.tolerance < kRankResolution ? ", below the 1.2e-07 that 4-byte ranks resolve" : "");
  r.say("result      %s%s%s\n", spec.summary_text(result).c_str(), sources.size() > 1 ? " (last source)" : "",
        not_converged);
  if (s.validate)
    r.say("validate    %s%s\n", validation_message.c_str(),
          sources.size() > 1 && validated == "pass"
              ? (" (every one of " + std::to_string(sources.size()) + " sources)").c_str()
              : "");
  if (!s.trace.empty()) write_trace(out, s.trace);
  if (!s.output.empty()) {
    write_values(result, s.output);
    r.say("output      %s\n", s.output.c_str());
  }
  // Collectives: every rank takes part.
  const std::vector<double> held = per_rank(double(held_edges(g)), cluster()), rss = per_rank(peak_rss_mb(), cluster());
  if (cluster())
    r.say("memory      peak RSS %s MB per rank; edges held %s\n", list(rss, "%.0f").c_str(),
          list(held, "%.0f").c_str());
  if (s.json) {
    JsonObject j;
    j.add("app", app_name(s.app)).add("graph", FLAGS_graph);
    j.add("vertices", uint64_t(g.num_vertices())).add("edges", uint64_t(g.num_edges()));
    j.add("directed", g.directed()).add("weighted", g.weighted() && !p.weights_made).add("weights", weights_of(p));
    j.add("format", p.info.format).add("compression", p.info.compression);
    j.add("direction_reason", p.info.direction_reason);
    j.add("ids", p.info.ids.name()).add("ids_range", p.info.ids.describe(g.num_vertices()));
    if (s.has_source()) {
      j.add("source", p.info.ids.of(sources.back()));
      if (sources.size() > 1) {
        std::vector<double> ids;
        for (vid_t v : sources) ids.push_back(double(p.info.ids.of(v)));
        j.add("sources", ids).add("source_times", source_times);
      }
    }
    j.add("reordered", !p.old_of_new.empty());
    j.add("backend", backend).add("devices", s.eopt.devices).add("threads", s.threads);
    const ClusterPlace* c = cluster();
    j.add("ranks", c ? c->ranks : 1).add("devices_per_rank", c ? c->local : s.eopt.devices);
    if (c) j.add("fabric", fabric);
    if (!rings.where.empty()) j.add("gpu_rings", rings.where).add("gpu_rings_why", rings.why);
    if (!s.switch_how.empty()) j.add("small_bytes", uint64_t(s.eopt.small_bytes)).add("small_bytes_how", s.switch_how);
    j.add("rank_edges_held", held).add("rank_peak_rss_mb", rss);
    j.add("load_s", p.load_s).add("compute_s", compute_s).add("compute_s_all", times);
    j.add("iterations", iterations).add("edges_traversed", edges).add("gteps", gteps);
    j.add("edges_examined", out.multi.edges());
    j.raw("multi", multi_json(out, p.partition_s, c ? c->local : s.eopt.devices));
    j.raw("summary", spec.summary_json(result));
    j.add("validated", validated);
    j.add("converged", out.multi.converged);
    if (!out.multi.converged) j.add("last_change", out.multi.last_change);
    std::printf("%s\n", j.str().c_str());
  }
  std::fflush(stdout);
  return validated == "fail" ? 3 : !out.multi.converged ? 4 : 0;
}

}  // namespace chatty::cli
