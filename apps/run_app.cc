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
                   const Partition* part, const PairQuery* query = nullptr) {
  const AppSpec& a = app_spec(app);
  const vid_t n = g.num_vertices();
  for (const auto& [u, v] : query ? query->pairs : std::vector<VertexPair>{})
    CHATTY_CHECK(u < n && v < n, "pair (" + std::to_string(u) + ", " + std::to_string(v) +
                                     ") out of range: the graph has vertices 0.." + std::to_string(n - 1));
  for (vid_t v : query ? query->of : std::vector<vid_t>{})
    CHATTY_CHECK(v < n,
                 "vertex " + std::to_string(v) + " out of range: the graph has vertices 0.." + std::to_string(n - 1));
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
  const AppRun run{g, source, opt, *part, sources, cluster_ranks(), query};
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

AppOutput run_app(App app, const Graph& g, const PairQuery& query, const EngineOptions& opt, const Partition* part) {
  CHATTY_CHECK(app_spec(app).per_pair, std::string(app_name(app)) + " has a value per vertex, not per pair");
  return run_from(app, g, 0, nullptr, opt, part, &query);
}

AppOutput in_input_ids(AppOutput out, const std::vector<vid_t>& old_of_new) {
  if (old_of_new.empty()) return out;
  if (const auto relabel = app_spec(out.app).relabel) relabel(out, old_of_new);
  if (app_spec(out.app).per_pair) {  // the values stay with their pairs
    for (auto& [u, v] : out.pairs) u = old_of_new[u], v = old_of_new[v];
    return out;
  }
  out.ranks = to_old_order(out.ranks, old_of_new);
  out.second = to_old_order(out.second, old_of_new);
  out.ints = to_old_order(out.ints, old_of_new);
  for (std::vector<uint32_t>& level : out.levels) level = to_old_order(level, old_of_new);
  out.counts = to_old_order(out.counts, old_of_new);
  for (vid_t& s : out.sources) s = old_of_new[s];
  return out;
}

Validation validate_app(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions& opt) {
  return app_spec(out.app).validate(out, g, source, opt);
}

uint64_t traversed_edges(const AppOutput& out, const Graph& g) { return app_spec(out.app).traversed_edges(out, g); }

namespace {

// Writes append(i, buffer) for i in [0, n) to `path`, a megabyte at a time.
template <typename Append>
void write_buffered(const std::string& path, size_t n, Append&& append) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw Error(path + ": cannot write: " + std::strerror(errno));
  std::string buf;
  bool ok = true;
  for (size_t i = 0; i < n && ok; ++i) {
    append(i, buf);
    if (buf.size() > (1 << 20)) {
      ok = std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
      buf.clear();
    }
  }
  ok = ok && std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) throw Error(path + ": write failed: " + std::strerror(errno));
}

// Writes line(i, tmp, size), a line formatted into a small buffer, for i in [0, n).
template <typename Line>
void write_lines(const std::string& path, size_t n, Line&& line) {
  write_buffered(path, n, [&](size_t i, std::string& buf) {
    char tmp[96];
    const int len = line(i, tmp, sizeof tmp);
    buf.append(tmp, size_t(len));
  });
}

void write_pairs_to(const AppOutput& out, const std::string& path) {
  const bool reals = app_spec(out.app).values == Values::kReals;
  write_lines(path, out.pairs.size(), [&](size_t i, char* tmp, size_t size) {
    const auto u = static_cast<unsigned long long>(out.id_of(out.pairs[i].first));
    const auto v = static_cast<unsigned long long>(out.id_of(out.pairs[i].second));
    return reals ? std::snprintf(tmp, size, "%llu %llu %.17g\n", u, v, out.scores[i])
                 : std::snprintf(tmp, size, "%llu %llu %u\n", u, v, out.ints[i]);
  });
}

// "id c1 c2 ...": a vertex's community at each level, named by its least
// input id.
void write_levels_to(const AppOutput& out, const std::string& path) {
  write_buffered(path, out.ints.size(), [&](size_t v, std::string& buf) {
    buf.append(std::to_string(out.id_of(vid_t(v))));
    for (const std::vector<uint32_t>& level : out.levels) buf.append(" ").append(std::to_string(out.id_of(level[v])));
    buf.push_back('\n');
  });
}

void write_values_to(const AppOutput& out, const std::string& path) {
  if (app_spec(out.app).per_pair) return write_pairs_to(out, path);
  if (!out.levels.empty()) return write_levels_to(out, path);
  const Values kind = app_spec(out.app).values;
  const bool reals = kind == Values::kReals, counts = kind == Values::kCounts;
  const bool names_vertices = app_spec(out.app).relabel != nullptr;  // WCC's labels
  const size_t n = reals ? out.ranks.size() : counts ? out.counts.size() : out.ints.size();
  write_lines(path, n, [&](size_t v, char* tmp, size_t size) {
    int len;
    const auto id = static_cast<unsigned long long>(out.id_of(vid_t(v)));
    if (reals && v < out.second.size())
      len = std::snprintf(tmp, size, "%llu %.9g %.9g\n", id, double(out.ranks[v]), double(out.second[v]));
    else if (reals)
      len = std::snprintf(tmp, size, "%llu %.9g\n", id, double(out.ranks[v]));
    else if (counts)
      len = std::snprintf(tmp, size, "%llu %llu\n", id, static_cast<unsigned long long>(out.counts[v]));
    else if (out.ints[v] == kInfinity)
      len = std::snprintf(tmp, size, "%llu inf\n", id);
    else if (names_vertices)
      len = std::snprintf(tmp, size, "%llu %llu\n", id, static_cast<unsigned long long>(out.id_of(out.ints[v])));
    else
      len = std::snprintf(tmp, size, "%llu %u\n", id, out.ints[v]);
    return len;
  });
}

}  // namespace

void write_values(const AppOutput& out, const std::string& path) {
  write_replacing(path, [&](const std::string& tmp) { write_values_to(out, tmp); });
}

}  // namespace chatty
