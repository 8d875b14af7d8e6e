#include "apps/run_app.h"

#include <omp.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cpu_cluster/cluster.h"
#include "runtime/base/replace_file.h"
#include "runtime/base/status.h"
#include "runtime/graph/graph_builder.h"
#include "runtime/graph/reorder.h"

namespace chatty {

vid_t default_source(const Graph& g) {
  const vid_t n = g.num_vertices();
  for (vid_t v = 0; v < n; ++v)
    if (g.out_degree(v) > 0) return v;
  throw Error("graph has no vertex with an out-edge to start from");
}

void prepare_graph(App app, Graph& g, bool use_default_weights, uint64_t seed) {
  add_default_weights(app, g, use_default_weights, seed);
  if (app_spec(app).needs_in_edges) (void)g.in();             // build the CSC outside the timing
  if (app_spec(app).needs_weights) (void)g.narrow_weights();  // and the weights a byte each
}

bool add_default_weights(App app, Graph& g, bool use_default_weights, uint64_t seed) {
  if (!app_spec(app).needs_weights || g.every_edge_weighted()) return false;
  CHATTY_CHECK(use_default_weights, std::string(app_name(app)) +
                                        " needs edge weights and the graph has none (drop --no_default_weights "
                                        "to use deterministic weights 1..255)");
  g.set_weights(default_weights(g.out(), seed, g.rows_lo(), g.rows_hi()));
  return true;
}

namespace {

AppOutput run_from(App app, const Graph& g, vid_t source, const std::vector<vid_t>* sources, const EngineOptions& opt,
                   const Partition* part) {
  const AppSpec& a = app_spec(app);
  for (vid_t s : sources ? *sources : std::vector<vid_t>{})
    CHATTY_CHECK(s < g.num_vertices(), "source " + std::to_string(s) + " out of range: the graph has vertices 0.." +
                                           std::to_string(g.num_vertices() - 1));
  CHATTY_CHECK(!a.needs_source || source < g.num_vertices(), "source " + std::to_string(source) +
                                                                 " out of range: the graph has vertices 0.." +
                                                                 std::to_string(g.num_vertices() - 1));
  if (a.check) a.check(g, opt);
  const bool gpu = opt.backend == Backend::kCuda;
  CHATTY_CHECK(!gpu || a.run_gpu,
               "--backend=cuda: this build has no CUDA backend (nvcc was not found when it was configured)");
  Partition made;
  if (!part) {
    made = partition_graph(g, std::max(1, opt.devices));
    part = &made;
  }
  AppOutput out;
  out.app = app;
  if (sources) out.sources = *sources;
  const AppRun run{g, source, opt, *part, sources, cluster_ranks()};
  if (gpu) {
    a.run_gpu(run, out);
    out.seconds = out.multi.run_seconds;  // probing, setup and copying results back are not the run
    out.backend = Backend::kCuda;
  } else {
    // Per-vertex counts, an output GAP's kernels do not have: their array
    // is made before the run (its first touch costs as much as a sparse
    // graph's count), as a GPU device's arrays are made at setup.
    if (a.values == Values::kCounts) out.counts.assign(g.num_vertices(), 0);
    const double t0 = omp_get_wtime();
    a.run_host(run, out);
    out.seconds = omp_get_wtime() - t0 - out.multi.setup_seconds - out.multi.collect_seconds;
  }
  return out;
}

}  // namespace

AppOutput run_app(App app, const Graph& g, vid_t source, const EngineOptions& opt, const Partition* part) {
  return run_from(app, g, source, nullptr, opt, part);
}

AppOutput run_app(App app, const Graph& g, const std::vector<vid_t>& sources, const EngineOptions& opt,
                  const Partition* part) {
  CHATTY_CHECK(app_spec(app).sources_at_once, std::string(app_name(app)) + " runs from one source at a time");
  CHATTY_CHECK(!sources.empty(), "no sources");
  return run_from(app, g, sources[0], &sources, opt, part);
}

AppOutput in_input_ids(AppOutput out, const std::vector<vid_t>& old_of_new) {
  if (old_of_new.empty()) return out;
  if (const auto relabel = app_spec(out.app).relabel) relabel(out, old_of_new);
  out.ranks = to_old_order(out.ranks, old_of_new);
  out.second = to_old_order(out.second, old_of_new);
  out.ints = to_old_order(out.ints, old_of_new);
  out.counts = to_old_order(out.counts, old_of_new);
  for (vid_t& s : out.sources) s = old_of_new[s];
  return out;
}

Validation validate_app(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions& opt) {
  return app_spec(out.app).validate(out, g, source, opt);
}

uint64_t traversed_edges(const AppOutput& out, const Graph& g) { return app_spec(out.app).traversed_edges(out, g); }

namespace {

void write_values_to(const AppOutput& out, const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw Error(path + ": cannot write: " + std::strerror(errno));
  const Values kind = app_spec(out.app).values;
  const bool reals = kind == Values::kReals, counts = kind == Values::kCounts;
  const bool names_vertices = app_spec(out.app).relabel != nullptr;  // WCC's labels
  const size_t n = reals ? out.ranks.size() : counts ? out.counts.size() : out.ints.size();
  std::string buf;
  bool ok = true;
  char tmp[64];
  for (size_t v = 0; v < n && ok; ++v) {
    int len;
    const auto id = static_cast<unsigned long long>(out.id_of(vid_t(v)));
    if (reals && v < out.second.size())
      len = std::snprintf(tmp, sizeof tmp, "%llu %.9g %.9g\n", id, double(out.ranks[v]), double(out.second[v]));
    else if (reals)
      len = std::snprintf(tmp, sizeof tmp, "%llu %.9g\n", id, double(out.ranks[v]));
    else if (counts)
      len = std::snprintf(tmp, sizeof tmp, "%llu %llu\n", id, static_cast<unsigned long long>(out.counts[v]));
    else if (out.ints[v] == kInfinity)
      len = std::snprintf(tmp, sizeof tmp, "%llu inf\n", id);
    else if (names_vertices)
      len = std::snprintf(tmp, sizeof tmp, "%llu %llu\n", id, static_cast<unsigned long long>(out.id_of(out.ints[v])));
    else
      len = std::snprintf(tmp, sizeof tmp, "%llu %u\n", id, out.ints[v]);
    buf.append(tmp, size_t(len));
    if (buf.size() > (1 << 20)) {
      ok = std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
      buf.clear();
    }
  }
  ok = ok && std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) throw Error(path + ": write failed: " + std::strerror(errno));
}

}  // namespace

void write_values(const AppOutput& out, const std::string& path) {
  write_replacing(path, [&](const std::string& tmp) { write_values_to(out, tmp); });
}

}  // namespace chatty
