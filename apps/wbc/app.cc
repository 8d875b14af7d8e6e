// Weighted betweenness centrality: each vertex's share of the shortest
// weighted paths from the run's sources (--sources as BC takes them),
// summed over them, in --bc_scale's convention.
#include "apps/bc/app.h"

#include <omp.h>

#include <algorithm>

#include "apps/host_run.h"
#include "apps/summaries.h"
#include "apps/wbc/app.h"
#include "apps/wbc/dijkstra_brandes.h"
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

void check(const Graph& g, const EngineOptions&) {
  CHATTY_CHECK(g.weighted(), "wbc reads edge weights: the graph has none");
}

void run_host(const AppRun& r, AppOutput& out) {
  take_bc_scores(run_on_host(r, WbcProgram{r.all_sources()}, out), r, out);
}

Validation validate(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions& opt) {
  const std::vector<vid_t> sources = out.sources_or(source);
  return check_bc_scores(out, g, sources, opt.bc_scale, reference::weighted_betweenness(g, sources),
                         "weighted Brandes");
}

std::string text(const AppOutput& out) { return top_values_text(out, "score"); }
JsonValue json(const AppOutput& out) { return top_values_json(out, "score"); }
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
    .run_gpu = CHATTY_GPU_ENTRY(run_wbc_gpu),
    .validate = validate,
    .traversed_edges = examined_edges,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
