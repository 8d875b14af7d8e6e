// Weighted betweenness centrality: each vertex's share of the shortest
// weighted paths from the run's sources (--sources as BC takes them),
// summed over them, in --bc_scale's convention.
#include "apps/bc/app.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "apps/bc/scale.h"
#include "apps/host_run.h"
#include "apps/json.h"
#include "apps/summaries.h"
#include "apps/wbc/dijkstra_brandes.h"
#include "apps/wbc/program.h"
#include "apps/wbc/reference.h"
#include "runtime/host/operators.h"

namespace chatty {

std::vector<double> WbcProgram::on_host(const Graph& g, host::HostOperators& h) const {
  const std::vector<vid_t> mine = h.share().rank_items(sources);  // every ranks-th source
  const Csr& c = g.out();
  std::vector<double> score(c.num_vertices(), 0.0);
  const int threads =
      int(std::min<size_t>(size_t(std::max(1, omp_get_max_threads())), std::max<size_t>(1, mine.size())));
  h.team([&](host::TeamThread& t) {
    host::each_item_alone(
        t, mine.size(), threads, [&] { return wbc::DijkstraBrandes(c.num_vertices()); },
        [&](wbc::DijkstraBrandes& run, size_t i) { return run.run(c, mine[i]); },
        [&](wbc::DijkstraBrandes& run) {
          for (size_t v = 0; v < score.size(); ++v) score[v] += run.score()[v];
        });
  });
  h.note("a source a thread (Dijkstra has no levels to share)");
  return score;
}

namespace {

void check(const Graph& g, const EngineOptions& opt) {
  CHATTY_CHECK(opt.backend != Backend::kCuda,
               "wbc runs on the CPU backend (--backend=cpu); its GPU kernel is not written");
  CHATTY_CHECK(g.weighted(), "wbc reads edge weights: the graph has none");
}

void run_host(const AppRun& r, AppOutput& out) {
  take_bc_scores(run_on_host(r, WbcProgram{bc_sources(r)}, out), r, out);
}

Validation validate(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions& opt) {
  const std::vector<vid_t> one{source};
  const std::vector<vid_t>& sources = out.sources.empty() ? one : out.sources;
  const std::vector<double> want = scaled_bc(reference::weighted_betweenness(g, sources), g, sources, opt.bc_scale);
  if (want.size() != out.ranks.size())
    return {false,
            "FAIL: " + std::to_string(out.ranks.size()) + " scores for " + std::to_string(want.size()) + " vertices"};
  const double floor = bc::factors(opt.bc_scale, g.num_vertices(), g.directed(), sources.size()).other;
  double worst = 0;
  size_t at = 0;
  for (size_t v = 0; v < want.size(); ++v) {
    const double err = std::abs(double(out.ranks[v]) - want[v]) / std::max(floor, std::abs(want[v]));
    if (err > worst) worst = err, at = v;
  }
  char b[200];
  std::snprintf(b, sizeof b, "relative error %.2g at vertex %llu (%.9g against the reference's %.9g)", worst,
                static_cast<unsigned long long>(out.id_of(vid_t(at))), double(out.ranks[at]), want[at]);
  if (worst > 1e-6) return {false, std::string("FAIL: ") + b};  // 4-byte floats of sums taken in double
  return {true, "PASS (scores match the reference's weighted Brandes from " + std::to_string(sources.size()) +
                    " source" + (sources.size() > 1 ? "s" : "") + "; worst " + b + ")"};
}

std::string text(const AppOutput& out) { return top_values_text(out, "score"); }
JsonValue json(const AppOutput& out) { return top_values_json(out, "score"); }
uint64_t traversed(const AppOutput& out, const Graph&) { return out.multi.edges(); }

}  // namespace

extern const AppSpec app_wbc;
const AppSpec app_wbc{
    .name = "wbc",
    .about =
        "weighted betweenness centrality (Brandes over Dijkstra): shortest paths by the edges' weights, from "
        "--source, --sources=N, a list or all, as bc",
    .python_name = "weighted_betweenness",
    .python_doc =
        "Betweenness centrality over shortest weighted paths (Brandes with Dijkstra; whole weights, "
        "default ones 1..255 where the graph has none). Sources and bc_scale as betweenness(); "
        "NetworkX's betweenness_centrality(weight=...) runs here.",
    .needs_source = true,
    .sources_at_once = true,
    .needs_weights = true,
    .whole_graph = true,
    .values = Values::kReals,
    .python_double = true,
    .check = check,
    .run_host = run_host,
    .validate = validate,
    .traversed_edges = traversed,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
