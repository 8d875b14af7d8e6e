// SSSP: shortest distance of every vertex from --source over the edge weights.
#include "apps/sssp/app.h"

#include "apps/host_run.h"
#include "apps/sssp/program.h"
#include "apps/sssp/reference.h"
#include "apps/summaries.h"

namespace chatty {

namespace {

void check(const Graph& g, const EngineOptions&) {
  CHATTY_CHECK(g.every_edge_weighted(), "this app needs edge weights");
}

void run_host(const AppRun& r, AppOutput& out) {
  out.ints = run_on_host(r, SsspProgram{r.source}, out);
  check_sssp_overflow(out);
}

// GAP's SSSP check: the source at 0, no edge can shorten a distance, and
// every other reached vertex has an in-edge that gives its distance exactly.
Validation validate(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions&) {
  const std::vector<uint32_t>& dist = out.ints;
  const Csr& c = g.out();
  const VertexIds* ids = out.ids;
  if (dist.size() != c.num_vertices() || !g.weighted())
    return validate_exact(dist, reference::sssp(g, source), "distance", ids);
  if (dist[source] != 0) return fail_at(source, "the source has distance " + show_value(dist[source]), ids);
  std::vector<char> tight(dist.size(), 0);
  for (vid_t u = 0; u < c.num_vertices(); ++u) {
    if (dist[u] == kInfinity) continue;
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
      const vid_t v = c.targets[e];
      const uint64_t via = uint64_t(dist[u]) + c.weights[e];
      if (dist[v] == kInfinity || dist[v] > via)
        return fail_at(v,
                       "distance " + show_value(dist[v]) + " but vertex " + std::to_string(out.id_of(u)) + " offers " +
                           std::to_string(via),
                       ids);
      if (dist[v] == via) tight[v] = 1;
    }
  }
  for (vid_t v = 0; v < c.num_vertices(); ++v)
    if (v != source && dist[v] != kInfinity && !tight[v])
      return fail_at(v, "distance " + std::to_string(dist[v]) + " given by no in-edge", ids);
  return validate_exact(dist, reference::sssp(g, source), "distance", ids);
}

std::string text(const AppOutput& out) { return reached_text(out.ints, "distance"); }
JsonValue json(const AppOutput& out) { return reached_json(out.ints, "distance"); }
uint64_t traversed(const AppOutput& out, const Graph& g) { return reached_out_edges(out.ints, g); }

}  // namespace

extern const AppSpec app_sssp;
const AppSpec app_sssp{
    .name = "sssp",
    .about = "single-source shortest paths from --source over the edge weights (delta-stepping)",
    .python_name = "sssp",
    .python_doc =
        "Shortest-path distance from `source` over the edges' weights (whole numbers; an unweighted "
        "graph gets weights 1..255 from `seed`, unless no_default_weights=True), -1 where unreached.",
    .networkx =
        "single_source_dijkstra_path_length dijkstra_path_length single_source_bellman_ford_path_length "
        "bellman_ford_path_length",
    .needs_source = true,
    .needs_weights = true,
    .unreached = true,
    .messages = message_shape<SsspProgram>(),
    .check = check,
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_sssp_gpu),
    .validate = validate,
    .traversed_edges = traversed,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
