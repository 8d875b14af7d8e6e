// Leiden: communities of an undirected graph by modularity (levels.h),
// each connected, each vertex labelled by its community's least vertex id;
// the summary gives the modularity and the levels.
#include <cmath>
#include <cstdio>
#include <vector>

#include "apps/host_run.h"
#include "apps/labels.h"
#include "apps/leiden/levels.h"
#include "apps/leiden/program.h"
#include "apps/leiden/reference.h"
#include "apps/summaries.h"
#include "runtime/base/status.h"

namespace chatty {

std::vector<uint64_t> LeidenProgram::on_host(const Graph& g, host::HostOperators& h) const {
  return labels_on_rank_zero(h, g.num_vertices(), "communities", [&] {
    louvain::Outcome found;
    std::vector<uint32_t> labels = leiden::communities(h, g, *this, found);
    if (outcome) *outcome = found;
    return labels;
  });
}

namespace {

void check(const Graph& g, const EngineOptions&) {
  CHATTY_CHECK(!g.directed(), "leiden needs an undirected graph (use --symmetrize)");
}

void run_host(const AppRun& r, AppOutput& out) {
  louvain::Outcome found;
  const LeidenProgram program{r.opt.resolution, r.opt.threshold, r.opt.max_level, &found};
  const std::vector<uint64_t> label = run_on_host(r, program, out);
  out.ints.assign(label.begin(), label.end());
  out.figures.clear();
  if (found.computed) out.figures = {{"modularity", found.modularity}, {"levels", double(found.levels)}};
}

// The labels name their communities' least ids; every community is
// connected; the modularity the run reports is its communities',
// recomputed; then the communities and the levels equal the sequential
// run's.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions& opt) {
  if (out.ints.size() != g.num_vertices())
    return validate_exact(out.ints, std::vector<uint32_t>(g.num_vertices()), "community");
  if (Validation least = check_least_labels(out, "community"); !least.ok) return least;
  if (uint32_t v = 0; !reference::communities_connected(g, out.ints, v))
    return fail_at(v, "its community is not connected", out.ids);
  const double q = reference::modularity(g, out.ints, opt.resolution);
  const double reported = out.figure("modularity");
  char b[200];
  if (!(std::fabs(q - reported) <= 1e-9)) {
    std::snprintf(b, sizeof b, "FAIL: the run reports modularity %.12g, its communities have %.12g", reported, q);
    return {false, b};
  }
  const reference::LouvainResult want = reference::leiden(g, opt.resolution, opt.threshold, opt.max_level);
  if (Validation same = validate_exact(out.ints, want.labels, "community", out.ids); !same.ok) return same;
  if (out.figure("levels") != double(want.levels)) {
    std::snprintf(b, sizeof b, "FAIL: the run took %g levels, the sequential reference %u", out.figure("levels"),
                  want.levels);
    return {false, b};
  }
  std::snprintf(b, sizeof b,
                "PASS (modularity %.6f, recomputed from the communities; every community connected; every "
                "vertex's community and the %u levels as the sequential reference's)",
                q, want.levels);
  return {true, b};
}

}  // namespace

extern const AppSpec app_leiden;
const AppSpec app_leiden{
    .name = "leiden",
    .about = "Leiden communities by modularity, each connected (--resolution, --threshold, --max_level); undirected",
    .python_name = "leiden",
    .python_doc =
        "Leiden communities of an undirected graph (NetworkX's leiden_communities, with its resolution, and "
        "threshold and max_level as Louvain's): Louvain's levels with Leiden's refinement, so every community "
        "is connected; each vertex's label is the least input id (the first NetworkX node, by position) of "
        "its community; stats[\"summary\"] has the modularity and the levels. Deterministic: the same "
        "communities at every device count.",
    .networkx = "leiden_communities leiden_partitions",
    .reads_weights = true,
    .whole_graph = true,
    .check = check,
    .run_host = run_host,
    .validate = validate,
    .relabel = relabel_least_ids,
    .traversed_edges = examined_edges,
    .summary_text = modularity_text,
    .summary_json = modularity_json,
};

}  // namespace chatty
