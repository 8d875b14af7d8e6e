// `chatty run`: load a graph, run an app --repeat times, report the median.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "apps/cli/commands.h"
#include "apps/cli/flags.h"
#include "apps/cli/json.h"
#include "apps/run_app.h"
#include "runtime/gpu_plan.h"
#include "runtime/reorder.h"
#include "runtime/status.h"

DEFINE_string(app, "bfs", "app to run: bfs, sssp, pr or wcc");
DEFINE_int64(source, -1, "BFS/SSSP source vertex (default: lowest id with an out-edge)");
DEFINE_string(backend, "auto", "auto (the GPUs if any is usable, else the CPU), cuda or cpu");
DEFINE_string(gpu_lb, "twc",
              "GPU push load balance: twc (thread/warp/block per vertex by degree) or lb (edge-balanced)");
DEFINE_int32(repeat, 1, "run the app this many times on the loaded graph and report the median");
DEFINE_bool(validate, false, "check the result against the sequential reference");
DEFINE_string(output, "", "write 'id value' per vertex to this file");
DEFINE_string(reorder, "auto",
              "relabel vertices by degree before running: auto (for pr), degree or none; "
              "results and --source use the input's ids");
DEFINE_string(trace, "", "write per-superstep statistics of the last run to this CSV file");
DEFINE_bool(no_default_weights, false, "SSSP: do not add weights 1..255 to an unweighted graph (error instead)");

namespace chatty::cli {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

BackendChoice choose_backend() {
  if (FLAGS_backend == "cpu") return select_backend("cpu", GpuInventory{});
  return select_backend(FLAGS_backend, probe_gpus());
}

}  // namespace

int cmd_run(const std::vector<std::string>& args) {
  CHATTY_CHECK(args.empty(), "run: unexpected argument '" + (args.empty() ? "" : args[0]) + "' (use --graph=...)");
  const App app = parse_app(FLAGS_app);
  const BackendChoice choice = choose_backend();
  const char* backend = choice.backend == Backend::kCuda ? "cuda" : "cpu";
  CHATTY_CHECK(FLAGS_repeat >= 1, "--repeat must be at least 1");
  EngineOptions eopt = engine_options();
  eopt.backend = backend;
  eopt.gpu_lb = FLAGS_gpu_lb;
  CHATTY_CHECK(FLAGS_gpu_lb == "twc" || FLAGS_gpu_lb == "lb", "--gpu_lb must be twc or lb");
  if (choice.backend == Backend::kCuda) validate_gpu_comm(eopt.comm, place_devices(eopt.devices, 1 << 20));
  const int threads = apply_threads();
  const LoadOptions lopt = load_options();

  CHATTY_CHECK(FLAGS_reorder == "auto" || FLAGS_reorder == "degree" || FLAGS_reorder == "none",
               "--reorder must be auto, degree or none");
  double t0 = omp_get_wtime();
  Graph g = load_graph(FLAGS_graph, lopt);
  double load_s = omp_get_wtime() - t0;
  // Partitioning is part of setting up the devices, not of the run. The
  // chunks are chosen on the input's ids (F depends only on each chunk's
  // vertices and edges, which relabelling within chunks keeps).
  t0 = omp_get_wtime();
  std::unique_ptr<Partition> part;
  if (eopt.devices > 1) part = std::make_unique<Partition>(partition_graph(g, eopt.devices));
  double partition_s = omp_get_wtime() - t0;
  // Relabelling is graph preparation (like building in-edges): outside the
  // timed runs, and invisible in results, which use the input's ids.
  t0 = omp_get_wtime();
  std::vector<vid_t> old_of_new, new_of_old;
  // Default SSSP weights hash the input's ids, so they are made first and
  // travel with their edges.
  add_default_weights(app, g, !FLAGS_no_default_weights, FLAGS_seed);
  if (FLAGS_reorder == "degree" || (FLAGS_reorder == "auto" && app == App::kPageRank)) {
    // Hubs first within each device's chunk.
    Reordered r = reorder_by_degree(g, part ? part->bounds : std::vector<vid_t>{});
    g = std::move(r.graph);
    old_of_new = std::move(r.old_of_new);
    new_of_old = std::move(r.new_of_old);
  }
  prepare_graph(app, g, !FLAGS_no_default_weights, FLAGS_seed);
  load_s += omp_get_wtime() - t0;
  if (part && !old_of_new.empty()) {  // the same chunks; their boundary vertices have new ids
    t0 = omp_get_wtime();
    *part = partition_at(g, part->bounds);
    partition_s += omp_get_wtime() - t0;
  }

  vid_t source = 0;
  const bool has_source = app == App::kBfs || app == App::kSssp;
  if (has_source) {
    if (FLAGS_source < 0) {
      CHATTY_CHECK(FLAGS_source == -1, "--source must be a vertex id >= 0");
      source = default_source(g);
      if (!old_of_new.empty()) {  // the lowest input id with an out-edge
        source = g.num_vertices();
        for (vid_t v = 0; v < g.num_vertices(); ++v)
          if (g.out_degree(v) > 0) source = std::min(source, old_of_new[v]);
        source = new_of_old[source];
      }
    } else {
      CHATTY_CHECK(uint64_t(FLAGS_source) < g.num_vertices(),
                   "--source=" + std::to_string(FLAGS_source) + " out of range: " + FLAGS_graph + " has vertices 0.." +
                       std::to_string(g.num_vertices() - 1));
      source = old_of_new.empty() ? vid_t(FLAGS_source) : new_of_old[size_t(FLAGS_source)];
    }
  }
  const vid_t shown_source = old_of_new.empty() ? source : old_of_new[source];

  std::printf("graph       %s: %u vertices, %lu edges (%s, %s)\n", FLAGS_graph.c_str(), g.num_vertices(),
              (unsigned long)g.num_edges(), g.directed() ? "directed" : "undirected",
              g.weighted() ? "weighted" : "unweighted");
  std::printf("load        %.3f s\n", load_s);
  std::printf("backend     %s\n", choice.reason.c_str());
  std::printf("app         %s%s on %s backend, %d device%s, %d threads\n", app_name(app),
              has_source ? (" from " + std::to_string(shown_source)).c_str() : "", backend, eopt.devices,
              eopt.devices > 1 ? "s" : "", threads);
  if (part) std::printf("partition   %.3f s (%d chunks)\n", partition_s, eopt.devices);

  std::vector<double> times;
  AppOutput out;
  for (int r = 0; r < FLAGS_repeat; ++r) {
    out = run_app(app, g, source, eopt, part.get());
    times.push_back(out.seconds);
  }
  const double compute_s = median(times);
  const bool multi = part || out.backend == "cuda";  // statistics of the multi-device runtime
  const uint64_t edges = traversed_edges(out, g);
  const double gteps = compute_s > 0 ? double(edges) / compute_s / 1e9 : 0;
  std::printf("compute     %.4f s%s\n", compute_s,
              FLAGS_repeat > 1 ? (" (median of " + std::to_string(FLAGS_repeat) + ")").c_str() : "");
  const MultiStats& ms = out.multi;
  const int iterations = multi ? int(ms.steps.size()) : out.stats.iterations();
  std::printf("iterations  %d\n", iterations);
  if (multi) {
    const double ratio = ms.updated() ? double(ms.communicated()) / double(ms.updated()) : 0.0;
    std::printf("exchange    %s; %lu boundary records for %lu updates (%.1f %%); %.1f MB application, %.3f MB status\n",
                ms.transport.c_str(), (unsigned long)ms.communicated(), (unsigned long)ms.updated(), 100 * ratio,
                double(ms.bytes(0)) / 1e6, double(ms.bytes(1)) / 1e6);
    if (ms.migrated())  // vertex computations (a WCC vertex is flattened several times, so no share of updates)
      std::printf("migration   %lu vertex computations run by a peer of the vertex's owner\n",
                  (unsigned long)ms.migrated());
    if (out.backend == "cuda") {
      std::printf("gpus       ");
      for (int gpu : out.gpu_of) std::printf(" %d", gpu);
      std::printf(" (GPU of each device; setup %.3f s, not in the compute time)\n", ms.setup_seconds);
    }
    std::printf("time split ");
    for (int p = 0; p < kPhases; ++p) std::printf(" %s %.4f s", phase_name(p), ms.seconds(p));
    std::printf("\n");
    for (size_t d = 0; d < ms.device_seconds.size(); ++d) {
      std::printf("  device %zu", d);
      for (int p = 0; p < kPhases; ++p) std::printf(" %s %.4f s", phase_name(p), ms.device_seconds[d][size_t(p)]);
      std::printf("\n");
    }
  }
  std::printf("GTEPS       %.3f\n", gteps);

  std::string validated = "skipped";
  if (FLAGS_validate) {
    Validation v = validate_app(out, g, source, eopt);
    std::printf("validate    %s\n", v.message.c_str());
    validated = v.ok ? "pass" : "fail";
  }
  if (!FLAGS_trace.empty()) {
    FILE* f = std::fopen(FLAGS_trace.c_str(), "w");
    CHATTY_CHECK(f, FLAGS_trace + ": cannot write");
    if (multi) {
      std::fprintf(f, "step,direction,updated,communicated,application_bytes,status_bytes");
      for (int p = 0; p < kPhases; ++p) std::fprintf(f, ",%s_s", phase_name(p));
      std::fprintf(f, "\n");
      for (size_t i = 0; i < ms.steps.size(); ++i) {
        const MultiStep& s = ms.steps[i];
        std::fprintf(f, "%zu,%s,%lu,%lu,%lu,%lu", i, s.pull ? "pull" : "push", (unsigned long)s.updated,
                     (unsigned long)s.communicated, (unsigned long)s.app_bytes, (unsigned long)s.status_bytes);
        for (int p = 0; p < kPhases; ++p) std::fprintf(f, ",%.6f", s.seconds[p]);
        std::fprintf(f, "\n");
      }
    } else {
      std::fprintf(f, "step,direction,active,updated,edges,seconds\n");
      for (size_t i = 0; i < out.stats.steps.size(); ++i) {
        const SuperstepStats& s = out.stats.steps[i];
        std::fprintf(f, "%zu,%s,%lu,%lu,%lu,%.6f\n", i, s.pull ? "pull" : "push", (unsigned long)s.active,
                     (unsigned long)s.updated, (unsigned long)s.edges, s.seconds);
      }
    }
    CHATTY_CHECK(std::fclose(f) == 0, FLAGS_trace + ": write failed");
  }
  if (!FLAGS_output.empty()) {
    if (!old_of_new.empty()) {
      out.ints = to_old_order(out.ints, old_of_new);
      out.ranks = to_old_order(out.ranks, old_of_new);
    }
    write_values(out, FLAGS_output);
    std::printf("output      %s\n", FLAGS_output.c_str());
  }
  if (FLAGS_json) {
    JsonObject j;
    j.add("app", app_name(app)).add("graph", FLAGS_graph);
    j.add("vertices", uint64_t(g.num_vertices())).add("edges", uint64_t(g.num_edges()));
    j.add("directed", g.directed()).add("weighted", g.weighted());
    if (has_source) j.add("source", uint64_t(shown_source));
    j.add("reordered", !old_of_new.empty());
    j.add("backend", backend).add("devices", eopt.devices).add("threads", threads);
    j.add("load_s", load_s).add("compute_s", compute_s).add("compute_s_all", times);
    j.add("iterations", iterations).add("edges_traversed", edges).add("gteps", gteps);
    if (multi) {
      JsonObject x;
      x.add("transport", ms.transport).add("partition_s", partition_s).add("setup_s", ms.setup_seconds);
      x.add("updated", ms.updated()).add("communicated", ms.communicated()).add("edges_examined", ms.edges());
      x.add("communicated_ratio", ms.updated() ? double(ms.communicated()) / double(ms.updated()) : 0.0);
      x.add("bytes_structure", ms.structure_bytes).add("bytes_application", ms.bytes(0));
      x.add("bytes_status", ms.bytes(1)).add("migrated", ms.migrated());
      for (int p = 0; p < kPhases; ++p) x.add(std::string(phase_name(p)) + "_s", ms.seconds(p));
      std::string per_device = "[";  // per device: {"merge_s": .., ...}
      for (size_t d = 0; d < ms.device_seconds.size(); ++d) {
        JsonObject dev;
        for (int p = 0; p < kPhases; ++p) dev.add(std::string(phase_name(p)) + "_s", ms.device_seconds[d][size_t(p)]);
        per_device += (d ? "," : "") + dev.str();
      }
      x.raw("device_seconds", per_device + "]");
      j.raw("multi", x.str());
    } else {
      j.add("edges_examined", out.stats.edges());
    }
    j.add("validated", validated);
    std::printf("%s\n", j.str().c_str());
  }
  std::fflush(stdout);
  return validated == "fail" ? 3 : 0;
}

}  // namespace chatty::cli
