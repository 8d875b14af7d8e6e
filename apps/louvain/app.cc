// Louvain: communities of an undirected graph by modularity (levels.h),
// each vertex labelled by its community's least vertex id; the summary
// gives the modularity and the levels, as NetworkX's louvain_partitions
// counts them.
#include "apps/louvain/app.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "apps/host_run.h"
#include "apps/labels.h"
#include "apps/louvain/app_steps.h"
#include "apps/louvain/levels.h"
#include "apps/louvain/program.h"
#include "apps/louvain/reference.h"
#include "apps/summaries.h"
#include "runtime/base/status.h"

namespace chatty {

std::vector<uint64_t> LouvainProgram::on_host(const Graph& g, host::HostOperators& h) const {
  return labels_on_rank_zero(h, g.num_vertices(), "communities", [&] {
    louvain::Outcome found;
    std::vector<uint32_t> labels = louvain::communities(h, g, *this, found);
    if (outcome) *outcome = found;
    return labels;
  });
}

namespace {

void check(const Graph& g, const EngineOptions&) { louvain::check_undirected(g, "louvain"); }

// The verifier's steps of app_steps.h against Louvain's reference.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions& opt) {
  return louvain::validate_communities(
      out, g, opt,
      [](const Graph& in, const EngineOptions& o) {
        return reference::louvain(in, o.resolution, o.threshold, o.max_level);
      },
      nullptr, "");
}

}  // namespace

extern const AppSpec app_louvain;
const AppSpec app_louvain{
    .name = "louvain",
    .about = "Louvain communities by modularity (--resolution, --threshold, --max_level); undirected graphs",
    .python_name = "louvain",
    .python_doc =
        "Louvain communities of an undirected graph (NetworkX's louvain_communities, with its resolution and "
        "threshold, and max_level): each vertex's label is the least input id (the first NetworkX node, by "
        "position) of its community; stats[\"summary\"] has the modularity and the levels. Deterministic: "
        "the same communities at every device count.",
    .networkx = "louvain_communities louvain_partitions",
    .reads_weights = true,
    .whole_graph = true,
    .check = check,
    .run_host = louvain::run_communities<LouvainProgram>,
    .run_gpu = CHATTY_GPU_ENTRY(run_louvain_gpu),
    .validate = validate,
    .relabel = relabel_least_ids,
    .traversed_edges = examined_edges,
    .summary_text = modularity_text,
    .summary_json = modularity_json,
};

}  // namespace chatty
