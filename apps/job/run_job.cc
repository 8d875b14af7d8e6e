#include "apps/job/run_job.h"

#include <sys/resource.h>

#include <algorithm>

#include "cpu_cluster/cluster.h"
#include "datasets/second_reading.h"
#include "runtime/base/status.h"

namespace chatty::job {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// --validate's check of the reading itself: the file read again by an
// independent parser must give the graph the run was given, in the input's
// ids. Returns a note for a PASS line, or the failure.
Validation check_reading(const Prepared& p, const Graph& input) {
  if (p.path.empty()) return {true, ""};  // a graph made in memory: no file to read again
  std::string why;
  if (!can_read_again(p.path, &why))
    return {true, p.path.find(':') != std::string::npos && why.rfind("a generated", 0) == 0
                      ? ""
                      : "; the file is not read a second time (" + why + ")"};
  const SecondReading r = read_again(p.path, p.read_with);
  const std::string diff = compare_with_reading(input, p.info.ids, r);
  if (!diff.empty()) return {false, "FAIL: the graph differs from a second, independent reading of the file: " + diff};
  return {true, "; a second, independent reading of the file gives the same " + std::to_string(r.ids.size()) +
                    " vertices and " + std::to_string(r.edges.size()) + " edges"};
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

std::string graph_line(const Prepared& p, bool by_default) {
  const Graph& g = p.g;
  std::string why = p.info.direction_reason.empty() ? "" : ": " + p.info.direction_reason;
  std::string what = p.info.format + (p.info.compression.empty() ? "" : ", " + p.info.compression);
  std::string weights = p.weights_made           ? "weights 1..255 generated from --seed"
                        : g.weighted()           ? "weighted"
                        : p.info.weights_dropped ? "weights ignored"
                                                 : "unweighted";
  return p.name + (by_default ? " (no --graph given: the default)" : "") + ": " + std::to_string(g.num_vertices()) +
         " vertices, " + std::to_string(g.num_edges()) + " edges (" + (g.directed() ? "directed" : "undirected") + why +
         "; " + weights + "; " + what + "; ids " + p.info.ids.name() + ": " + p.info.ids.describe(g.num_vertices()) +
         ")";
}

}  // namespace

JobResult run_job(const RunSetup& s, const Prepared& p, const std::vector<vid_t>& sources, Report& r) {
  JobResult job;
  const AppSpec& spec = app_spec(s.app);
  const Graph& g = p.g;
  const char* backend = backend_name(s.eopt.backend);

  r.say("graph       %s\n", graph_line(p, s.default_graph).c_str());
  r.say("load        %.3f s\n", p.load_s);
  if (!p.old_of_new.empty()) r.say("reorder     %.3f s of it (--reorder)\n", p.reorder_s);
  r.say("backend     %s\n", s.choice.reason.c_str());
  // Several sources run one by one (BFS, SSSP: a median over them), or at
  // once (BC: its scores sum over them).
  const bool at_once = spec.sources_at_once;
  const bool several = sources.size() > 1 && !at_once;
  std::string from;
  if (s.has_source())
    from = sources.size() > 1 ? " from " + std::to_string(sources.size()) + (at_once ? " sources" : " random sources")
                              : " from " + std::to_string(p.info.ids.of(sources[0]));
  const std::string busy =
      s.busy_cores ? " (" + std::to_string(s.busy_cores) + " busy core" + (s.busy_cores > 1 ? "s" : "") + " left out)"
                   : "";
  r.say("app         %s%s%s on %s backend, %d device%s, %d thread%s%s\n", app_name(s.app),
        s.default_app ? " (no --app given: the default)" : "", from.c_str(), backend, s.eopt.devices,
        s.eopt.devices > 1 ? "s" : "", s.threads, s.threads > 1 ? "s" : "", busy.c_str());
  // The verbs path is not built: ranks use MPI, and say whether RDMA was there.
  const RdmaProbe rdma = cluster() ? probe_rdma() : RdmaProbe{};
  const std::string rdma_said =
      rdma.devices.empty() ? "no RDMA: " + rdma.reason : "RDMA devices " + rdma.devices + " unused: no verbs path yet";
  const std::string fabric =
      cluster_windows_shared() && s.eopt.net != Net::kVerbs
          ? "MPI windows in shared memory, reached by loads and stores (every rank on this node; " + rdma_said + ")"
          : "MPI (" + rdma_said + ")";
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
  std::vector<vid_t> run_ids;  // at once: every source, in the run's ids
  for (vid_t v : at_once ? sources : std::vector<vid_t>{}) run_ids.push_back(p.to_run(v));
  const PairQuery pairs = spec.per_pair ? resolve_pairs(s.pairs, p) : PairQuery{};
  for (size_t i = 0; i < (at_once ? size_t(1) : sources.size()); ++i) {
    const vid_t src = sources[i];
    std::vector<double> t;
    for (int k = 0; k < s.repeat; ++k) {
      out = spec.per_pair ? run_app(s.app, g, pairs, s.eopt, p.part.get())
            : at_once     ? run_app(s.app, g, run_ids, s.eopt, p.part.get())
                          : run_app(s.app, g, p.to_run(src), s.eopt, p.part.get());
      t.push_back(out.seconds);
      times.push_back(out.seconds);
    }
    // run_program notes it as it gathers; a whole-graph app (BC, TC) runs
    // its share without it.
    if (cluster()) cluster_note_results();
    source_times.push_back(median(t));
    if (s.validate && validated == "pass") {
      // On the input's ids and graph, so that the relabelling is checked too.
      AppOutput checked = in_input_ids(out, p.old_of_new);
      checked.ids = &p.info.ids;  // messages name vertices as the input does
      Validation v = validate_app(checked, p.input.num_vertices() ? p.input : g, src, s.eopt);
      validation_message = v.message;
      if (!v.ok) {
        validated = "fail";
        if (several) validation_message = "from source " + std::to_string(p.info.ids.of(src)) + ": " + v.message;
      }
    }
  }
  if (s.validate && validated == "pass" && (!cluster() || cluster()->rank == 0)) {
    const Validation v = check_reading(p, p.input.num_vertices() ? p.input : g);
    validation_message = v.ok ? validation_message + v.message : v.message;
    if (!v.ok) validated = "fail";
  }
  const double compute_s = median(source_times);
  AppOutput result = in_input_ids(out, p.old_of_new);
  result.ids = &p.info.ids;
  const bool multi = p.part || out.backend == Backend::kCuda;  // exchange and time split are worth a line
  const uint64_t edges = traversed_edges(out, g);
  const double gteps = compute_s > 0 ? double(edges) / compute_s / 1e9 : 0;
  if (several)
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
  r.say("result      %s%s%s\n", spec.summary_text(result).c_str(), several ? " (last source)" : "", not_converged);
  if (s.validate)
    r.say("validate    %s%s\n", validation_message.c_str(),
          several && validated == "pass" ? (" (every one of " + std::to_string(sources.size()) + " sources)").c_str()
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
  RunStats& st = job.stats;
  const ClusterPlace* c = cluster();
  st.app = app_name(s.app), st.graph = p.name, st.backend = backend;
  st.vertices = g.num_vertices(), st.edges = g.num_edges();
  st.directed = g.directed(), st.weighted = g.weighted() && !p.weights_made;
  st.devices = s.eopt.devices, st.threads = s.threads, st.ranks = c ? c->ranks : 1;
  // One source's id; an app that sums over several (BC) has none to name.
  if (s.has_source() && (sources.size() == 1 || several)) {
    st.source = p.info.ids.of(sources.back());
    if (several) {
      for (vid_t v : sources) st.sources.push_back(p.info.ids.of(v));
      st.source_seconds = source_times;
    }
  }
  st.load_seconds = p.load_s, st.compute_seconds = compute_s, st.compute_seconds_all = times;
  st.iterations = iterations, st.edges_traversed = edges, st.edges_examined = out.multi.edges(), st.gteps = gteps;
  st.converged = out.multi.converged, st.last_change = out.multi.last_change;
  st.validated = validated, st.validation = validation_message;
  if (s.json) {
    JsonObject j;
    j.add("app", st.app).add("graph", st.graph);
    j.add("vertices", st.vertices).add("edges", st.edges);
    j.add("directed", st.directed).add("weighted", st.weighted).add("weights", weights_of(p));
    j.add("format", p.info.format).add("compression", p.info.compression);
    j.add("direction_reason", p.info.direction_reason);
    j.add("ids", p.info.ids.name()).add("ids_range", p.info.ids.describe(g.num_vertices()));
    if (st.source) {
      j.add("source", *st.source);
      if (several) j.add("sources", st.sources).add("source_times", st.source_seconds);
    }
    j.add("reordered", !p.old_of_new.empty());
    if (!p.old_of_new.empty()) j.add("reorder_s", p.reorder_s);
    j.add("backend", st.backend).add("devices", st.devices).add("threads", st.threads);
    j.add("ranks", st.ranks).add("devices_per_rank", c ? c->local : s.eopt.devices);
    if (c) j.add("fabric", fabric);
    if (!rings.where.empty()) j.add("gpu_rings", rings.where).add("gpu_rings_why", rings.why);
    if (!s.switch_how.empty()) j.add("small_bytes", uint64_t(s.eopt.small_bytes)).add("small_bytes_how", s.switch_how);
    j.add("rank_edges_held", held).add("rank_peak_rss_mb", rss);
    j.add("load_s", st.load_seconds).add("compute_s", st.compute_seconds).add("compute_s_all", times);
    j.add("iterations", st.iterations).add("edges_traversed", st.edges_traversed).add("gteps", st.gteps);
    j.add("edges_examined", st.edges_examined);
    j.add("multi", multi_json(out, p.partition_s, c ? c->local : s.eopt.devices));
    j.add("summary", spec.summary_json(result));
    j.add("validated", st.validated);
    if (s.validate) j.add("validation", st.validation);
    j.add("converged", st.converged);
    if (!st.converged) j.add("last_change", st.last_change);
    job.report = j.value();
  }
  job.result = std::move(result);
  job.exit_code = validated == "fail" ? 3 : !out.multi.converged ? 4 : 0;
  return job;
}

}  // namespace chatty::job
