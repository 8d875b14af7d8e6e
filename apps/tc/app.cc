// Triangle counting (GAP's `tc`): the triangles through every vertex of an
// undirected graph, and their total.
#include "apps/tc/app.h"

#include <cstdio>

#include "apps/host_run.h"
#include "apps/json.h"
#include "apps/registry.h"
#include "apps/tc/count.h"
#include "apps/tc/program.h"
#include "apps/tc/reference.h"
#include "runtime/base/status.h"
#include "runtime/graph/orient.h"

namespace chatty {

namespace {

void check(const Graph& g, const EngineOptions&) {
  CHATTY_CHECK(!g.directed(), "tc counts the triangles of an undirected graph (use --symmetrize)");
  // A repeated list entry (a parallel edge kept by --dedupe=false) would
  // count its triangles twice.
  require_no_parallel_edges(g, "tc", "whose triangles would count twice");
}

void run_host(const AppRun& r, AppOutput& out) {
  out.counts = run_on_host(r, TcProgram{r.opt.gpu_tc, &out.counts}, out);
}

uint64_t total(const std::vector<uint64_t>& per_vertex) {
  uint64_t s = 0;
  for (uint64_t t : per_vertex) s += t;
  return s / 3;
}

Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions&) {
  uint64_t sum = 0;
  for (uint64_t t : out.counts) sum += t;
  if (sum % 3) return {false, "FAIL: the per-vertex counts add to " + std::to_string(sum) + ", not a multiple of 3"};
  const std::vector<uint64_t> want = reference::triangles(g);
  if (want.size() != out.counts.size())
    return {false,
            "FAIL: " + std::to_string(out.counts.size()) + " counts for " + std::to_string(want.size()) + " vertices"};
  for (size_t v = 0; v < want.size(); ++v)
    if (want[v] != out.counts[v])
      return {false, "FAIL: vertex " + std::to_string(out.ids ? out.ids->of(vid_t(v)) : v) + " is in " +
                         std::to_string(out.counts[v]) + " triangles, the reference finds " + std::to_string(want[v])};
  return {true, "PASS (" + std::to_string(sum / 3) + " triangles; the triangles of all " + std::to_string(want.size()) +
                    " vertices match the reference)"};
}

struct Largest {
  uint64_t vertex = 0, count = 0;
};

Largest largest(const AppOutput& out) {
  Largest l;
  for (size_t v = 0; v < out.counts.size(); ++v)
    if (out.counts[v] > l.count) l = {out.id_of(vid_t(v)), out.counts[v]};
  return l;
}

std::string text(const AppOutput& out) {
  const Largest l = largest(out);
  char b[160];
  std::snprintf(b, sizeof b, "%llu triangles; the most through one vertex: %llu (vertex %llu)",
                static_cast<unsigned long long>(total(out.counts)), static_cast<unsigned long long>(l.count),
                static_cast<unsigned long long>(l.vertex));
  return b;
}

JsonValue json(const AppOutput& out) {
  const Largest l = largest(out);
  JsonObject j;
  j.add("triangles", total(out.counts)).add("largest_vertex", l.vertex).add("largest_count", l.count);
  return j.value();
}

uint64_t traversed(const AppOutput&, const Graph& g) { return g.num_edges(); }

}  // namespace

std::vector<uint64_t> TcProgram::on_host(const Graph& g0, host::HostOperators& h) const {
  const Graph* g = &g0;
  Oriented relabelled;
  const bool relabel = skewed_degrees(g0);
  if (relabel) {  // inside the timed run, as GAP times its relabelling
    relabelled = orient_lower(g0, true, InputPages::kDrop);
    g = &relabelled.graph;
  }
  // Each device counts the rows of its range (ranks: their devices' ranges).
  const host::DeviceRanges ranges = h.rows(g->num_vertices(), [&](vid_t v) { return g->out_degree(v) + 1; });
  return tc::count(h, *g, ranges, relabel ? relabelled.old_of_new.data() : nullptr, zeroed, relabel);
}

extern const AppSpec app_tc;
const AppSpec app_tc{
    .name = "tc",
    .alias = "triangles",
    .about = "triangle counting: the triangles through every vertex (GAP's tc, ordered); undirected graphs",
    .python_name = "triangles",
    .python_doc =
        "Triangles through every vertex of an undirected graph (uint64, as NetworkX's `triangles`); "
        "stats[\"summary\"][\"triangles\"] is the total.",
    .networkx = "triangles clustering average_clustering transitivity",
    .whole_graph = true,
    .values = Values::kCounts,
    .check = check,
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_tc_gpu),
    .validate = validate,
    .traversed_edges = traversed,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
