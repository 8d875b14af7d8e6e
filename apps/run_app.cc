#include "apps/run_app.h"

#include <omp.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "apps/bfs.h"
#include "apps/pagerank.h"
#include "apps/references.h"
#include "apps/run_app_gpu.h"
#include "apps/sssp.h"
#include "apps/wcc.h"
#include "comm/transport.h"
#include "runtime/graph_builder.h"
#include "runtime/multi_engine.h"
#include "runtime/reorder.h"
#include "runtime/status.h"

namespace chatty {

App parse_app(const std::string& name) {
  if (name == "bfs") return App::kBfs;
  if (name == "sssp") return App::kSssp;
  if (name == "pr" || name == "pagerank") return App::kPageRank;
  if (name == "wcc" || name == "cc") return App::kWcc;
  throw Error("unknown app '" + name + "' (bfs, sssp, pr or wcc)");
}

const char* app_name(App app) {
  switch (app) {
    case App::kBfs: return "bfs";
    case App::kSssp: return "sssp";
    case App::kPageRank: return "pr";
    case App::kWcc: return "wcc";
  }
  return "?";
}

vid_t default_source(const Graph& g) {
  const vid_t n = g.num_vertices();
  for (vid_t v = 0; v < n; ++v)
    if (g.out_degree(v) > 0) return v;
  throw Error("graph has no vertex with an out-edge to start from");
}

void prepare_graph(App app, Graph& g, bool use_default_weights, uint64_t seed) {
  add_default_weights(app, g, use_default_weights, seed);
  if (app == App::kPageRank || app == App::kBfs) (void)g.in();  // build the CSC outside the timing
}

void add_default_weights(App app, Graph& g, bool use_default_weights, uint64_t seed) {
  if (app == App::kSssp && !g.weighted()) {
    CHATTY_CHECK(use_default_weights,
                 "sssp needs edge weights and the graph has none (drop --no_default_weights to use "
                 "deterministic weights 1..255)");
    g.set_weights(default_weights(g.out(), seed));
  }
}

namespace {

void check_overflow(const AppOutput& out) {
  if (out.app == App::kSssp)
    for (uint32_t d : out.ints)
      CHATTY_CHECK(d != SsspProgram::kOverflow, "sssp: a shortest distance exceeds 2^32-2 (32-bit overflow)");
}

// The engine for one run: the drivers over host devices.
struct Runner {
  const Graph& g;
  const EngineOptions& opt;
  const Partition& part;
  AppOutput& out;
  std::unique_ptr<TransportPolicy> policy;

  template <typename Prog>
  auto operator()(const Prog& prog) {
    auto r = run_program_multi(g, prog, part, opt, *policy, out.multi);
    return std::move(r.values);
  }
};

}  // namespace

AppOutput run_app(App app, const Graph& g, vid_t source, const EngineOptions& opt, const Partition* part) {
  CHATTY_CHECK(app == App::kPageRank || app == App::kWcc || source < g.num_vertices(),
               "source " + std::to_string(source) + " out of range: the graph has vertices 0.." +
                   std::to_string(g.num_vertices() - 1));
  AppOutput out;
  out.app = app;
  if (opt.backend == Backend::kCuda) {
    CHATTY_CHECK(opt.union_find || app != App::kWcc || !g.directed(),
                 "wcc by label propagation needs an undirected graph (use --symmetrize)");
    run_app_gpu(app, g, source, opt, part, out);
    out.seconds = out.multi.run_seconds;  // probing, setup and copying results back are not the run
    out.backend = Backend::kCuda;
    check_overflow(out);
    return out;
  }
  Partition made;
  if (!part) {
    made = partition_graph(g, std::max(1, opt.devices));
    part = &made;
  }
  Runner run{g, opt, *part, out, make_fixed_policy(make_host_transport(opt.comm))};
  const double t0 = omp_get_wtime();
  switch (app) {
    case App::kBfs: out.ints = run(BfsProgram{source}); break;
    case App::kSssp: out.ints = run(SsspProgram{source}); break;
    case App::kWcc:
      CHATTY_CHECK(opt.union_find || !g.directed(),
                   "wcc by label propagation needs an undirected graph (use --symmetrize)");
      out.ints = run(WccProgram{});
      break;
    case App::kPageRank:
      out.ranks = run(PageRankProgram{g.num_vertices(), opt.damping, opt.tolerance, opt.max_iters});
      break;
  }
  out.seconds = omp_get_wtime() - t0;
  check_overflow(out);
  return out;
}

AppOutput in_input_ids(AppOutput out, const std::vector<vid_t>& old_of_new) {
  if (old_of_new.empty()) return out;
  out.ranks = to_old_order(out.ranks, old_of_new);
  if (out.app == App::kWcc) {
    // A component's label is its least vertex id, which relabelling changes.
    const size_t n = out.ints.size();
    std::vector<uint32_t> least(n, kInfinity);
    for (size_t v = 0; v < n; ++v)
      if (out.ints[v] < n) least[out.ints[v]] = std::min<uint32_t>(least[out.ints[v]], old_of_new[v]);
    for (size_t v = 0; v < n; ++v)
      if (out.ints[v] < n) out.ints[v] = least[out.ints[v]];
  }
  out.ints = to_old_order(out.ints, old_of_new);
  return out;
}

Validation validate_app(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions& opt) {
  switch (out.app) {
    case App::kBfs: return validate_exact(out.ints, reference::bfs(g, source), "depth");
    case App::kSssp: return validate_exact(out.ints, reference::sssp(g, source), "distance");
    case App::kWcc: return validate_exact(out.ints, reference::wcc(g), "label");
    case App::kPageRank: return validate_pagerank(out.ranks, g, opt);
  }
  return {};
}

uint64_t traversed_edges(const AppOutput& out, const Graph& g) {
  const vid_t n = g.num_vertices();
  switch (out.app) {
    case App::kBfs:
    case App::kSssp: {
      uint64_t m = 0;
#pragma omp parallel for schedule(static) reduction(+ : m)
      for (vid_t v = 0; v < n; ++v)
        if (out.ints[v] != kInfinity) m += g.out_degree(v);
      return m;
    }
    case App::kWcc: return g.num_edges();
    case App::kPageRank: return g.num_edges() * uint64_t(out.multi.steps.size());
  }
  return 0;
}

void write_values(const AppOutput& out, const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw Error(path + ": cannot write: " + std::strerror(errno));
  const size_t n = out.app == App::kPageRank ? out.ranks.size() : out.ints.size();
  std::string buf;
  bool ok = true;
  char tmp[64];
  for (size_t v = 0; v < n && ok; ++v) {
    int len;
    if (out.app == App::kPageRank)
      len = std::snprintf(tmp, sizeof tmp, "%zu %.9g\n", v, double(out.ranks[v]));
    else if (out.ints[v] == kInfinity)
      len = std::snprintf(tmp, sizeof tmp, "%zu inf\n", v);
    else
      len = std::snprintf(tmp, sizeof tmp, "%zu %u\n", v, out.ints[v]);
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

}  // namespace chatty

#if !defined(CHATTY_HAVE_CUDA)
namespace chatty {
void run_app_gpu(App, const Graph&, vid_t, const EngineOptions&, const Partition*, AppOutput&) {
  throw Error("--backend=cuda: this build has no CUDA backend (nvcc was not found when it was configured)");
}
}  // namespace chatty
#endif
