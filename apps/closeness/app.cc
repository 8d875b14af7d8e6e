// Distance measures of every vertex: closeness centrality (NetworkX's,
// Wasserman and Faust's scaling for graphs in pieces), harmonic centrality
// or eccentricity (--distance_measure), from a walk of every vertex.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <span>

#include "apps/closeness/program.h"
#include "apps/closeness/reference.h"
#include "apps/closeness/walk.h"
#include "apps/host_run.h"
#include "apps/summaries.h"
#include "runtime/host/operators.h"

namespace chatty {

double measure_of(DistanceMeasure m, const Walk& w, vid_t n) {
  switch (m) {
    case DistanceMeasure::kCloseness: {
      if (w.distance_sum == 0 || n < 2) return 0;
      const double others = double(w.reached - 1);
      return others / double(w.distance_sum) * (others / double(n - 1));
    }
    case DistanceMeasure::kHarmonic: return w.inverse_sum;
    case DistanceMeasure::kEccentricity:
      return w.reached < n ? std::numeric_limits<double>::infinity() : double(w.farthest);
  }
  return 0;
}

std::vector<double> ClosenessProgram::on_host(const Graph& g, host::HostOperators& h) const {
  // Closeness and harmonic centrality read the distances to a vertex.
  const Csr& c = measure == DistanceMeasure::kEccentricity || !g.directed() ? g.out() : g.in();
  const vid_t n = c.num_vertices();
  std::vector<vid_t> every(n);
  std::iota(every.begin(), every.end(), vid_t(0));
  const std::vector<vid_t> mine = h.share().rank_items(std::span<const vid_t>(every));  // every ranks-th vertex
  std::vector<double> value(n, 0.0);
  const int threads =
      int(std::min<size_t>(size_t(std::max(1, omp_get_max_threads())), std::max<size_t>(1, mine.size())));
  h.team([&](host::TeamThread& t) {
    host::each_item_alone(
        t, mine.size(), threads, [&] { return closeness::Walker(n); },
        [&](closeness::Walker& walker, size_t i) {
          uint64_t edges = 0;
          value[mine[i]] = measure_of(measure, walker.run(c, mine[i], edges), n);  // a vertex is one item's
          return edges;
        },
        [](closeness::Walker&) {});
  });
  h.note("a walk a thread, from every vertex");
  return value;
}

namespace {

void check(const Graph&, const EngineOptions& opt) {
  CHATTY_CHECK(opt.backend != Backend::kCuda,
               "closeness runs on the CPU backend (--backend=cpu); its GPU kernel is not written");
}

void run_host(const AppRun& r, AppOutput& out) {
  const std::vector<double> v = run_on_host(r, ClosenessProgram{r.opt.distance_measure}, out);
  out.ranks.assign(v.begin(), v.end());
}

Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions& opt) {
  const std::vector<double> want = reference::distance_measure(g, opt.distance_measure);
  if (want.size() != out.ranks.size()) return fail_at(out.ranks.size(), "past the last vertex of the reference");
  double worst = 0;
  size_t at = 0;
  for (size_t v = 0; v < want.size(); ++v) {
    const double got = out.ranks[v];
    if (std::isinf(want[v]) || std::isinf(got)) {
      if (got != want[v])
        return fail_at(v, std::to_string(got) + " where the reference has " + std::to_string(want[v]), out.ids);
      continue;
    }
    const double err = std::abs(got - want[v]) / std::max(1e-30, std::abs(want[v]));
    if (err > worst) worst = err, at = v;
  }
  char b[160];
  std::snprintf(b, sizeof b, "relative error %.2g at vertex %llu (%.9g against the reference's %.9g)", worst,
                static_cast<unsigned long long>(out.id_of(vid_t(at))), double(out.ranks[at]), want[at]);
  if (worst > 1e-6) return {false, std::string("FAIL: ") + b};  // 4-byte floats of values taken in double
  return {true, std::string("PASS (every vertex's measure matches the reference's; worst ") + b + ")"};
}

std::string text(const AppOutput& out) { return top_values_text(out, "value"); }
JsonValue json(const AppOutput& out) { return top_values_json(out, "value"); }
}  // namespace

extern const AppSpec app_closeness;
const AppSpec app_closeness{
    .name = "closeness",
    .about =
        "closeness centrality (NetworkX's), harmonic centrality or eccentricity (--distance_measure) of every "
        "vertex, from a walk of each",
    .python_name = "closeness",
    .python_doc =
        "Distance measures of every vertex from a breadth-first walk of each: distance_measure=\"closeness\" "
        "(NetworkX's closeness_centrality: distances to the vertex, scaled by the share of vertices "
        "reaching it), \"harmonic\" (harmonic_centrality: the sum of 1/distance to it) or \"eccentricity\" "
        "(the largest distance from it; inf where some vertex is out of reach).",
    .networkx =
        "closeness_centrality harmonic_centrality eccentricity diameter radius center periphery "
        "average_shortest_path_length wiener_index barycenter",
    .needs_in_edges = true,
    .whole_graph = true,
    .values = Values::kReals,
    .python_double = true,
    .check = check,
    .run_host = run_host,
    .validate = validate,
    .traversed_edges = examined_edges,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
