// Leiden: communities of an undirected graph by modularity (levels.h),
// each connected, each vertex labelled by its community's least vertex id;
// the summary gives the modularity and the levels.
#include "apps/leiden/app.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "apps/host_run.h"
#include "apps/labels.h"
#include "apps/leiden/levels.h"
#include "apps/leiden/program.h"
#include "apps/leiden/reference.h"
#include "apps/louvain/app_steps.h"
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

void check(const Graph& g, const EngineOptions&) { louvain::check_undirected(g, "leiden"); }

Validation connected(const AppOutput& out, const Graph& g) {
  if (uint32_t v = 0; !reference::communities_connected(g, out.ints, v))
    return fail_at(v, "its community is not connected", out.ids);
  return {true, ""};
}

// The verifier's steps of apps/louvain/app_steps.h, every community
// connected among them, against Leiden's reference.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions& opt) {
  return louvain::validate_communities(
      out, g, opt,
      [](const Graph& in, const EngineOptions& o) {
        return reference::leiden(in, o.resolution, o.threshold, o.max_level, o.passes);
      },
      connected, "every community connected; ");
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
        "is connected, in passes each from the last one's communities (as igraph's n_iterations=-1) until three "
        "in a row gain no more than 1e-5 modularity (max_level caps the levels of all passes); each vertex's label is "
        "the least input id (the first NetworkX node, by position) of its community; stats[\"summary\"] has the "
        "modularity and the levels. Deterministic: the same "
        "communities at every device count.",
    .networkx = "leiden_communities leiden_partitions",
    .reads_weights = true,
    .whole_graph = true,
    .check = check,
    .run_host = louvain::run_communities<LeidenProgram>,
    .run_gpu = CHATTY_GPU_ENTRY(run_leiden_gpu),
    .validate = validate,
    .relabel = relabel_least_ids,
    .traversed_edges = examined_edges,
    .summary_text = modularity_text,
    .summary_json = modularity_json,
};

}  // namespace chatty
