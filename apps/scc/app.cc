// SCC: every vertex of a directed graph labelled with the least vertex id
// of its strongly connected component (of an undirected one: WCC's).
#include "apps/scc/app.h"

#include <vector>

#include "apps/host_run.h"
#include "apps/labels.h"
#include "apps/scc/coloring.h"
#include "apps/scc/program.h"
#include "apps/scc/reference.h"
#include "apps/summaries.h"

namespace chatty {

std::vector<uint64_t> SccProgram::on_host(const Graph& g, host::HostOperators& h) const {
  return labels_on_rank_zero(h, g.num_vertices(), "components",
                             [&] { return scc::components(h, g.out(), g.directed() ? g.in() : g.out()); });
}

namespace {

void run_host(const AppRun& r, AppOutput& out) {
  const std::vector<uint64_t> label = run_on_host(r, SccProgram{}, out);
  out.ints.assign(label.begin(), label.end());
}

// Every edge inside a component joins two vertices of one label; the
// labels name their classes' least ids; then the classes equal Tarjan's.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions&) {
  const std::vector<uint32_t> want = reference::scc(g);
  if (out.ints.size() == want.size())
    if (Validation least = check_least_labels(out, "strongly connected component"); !least.ok) return least;
  return validate_exact(out.ints, want, "label", out.ids);
}

}  // namespace

extern const AppSpec app_scc;
const AppSpec app_scc{
    .name = "scc",
    .about = "strongly connected components: the least vertex id of each (colouring, forward and backward)",
    .python_name = "scc",
    .python_doc =
        "Strongly connected components of a directed graph (of an undirected one: its connected components): "
        "each vertex's label is the least input id (the first NetworkX node, by position) of its component.",
    .networkx = "strongly_connected_components number_strongly_connected_components is_strongly_connected",
    .needs_in_edges = true,
    .whole_graph = true,
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_scc_gpu),
    .validate = validate,
    .relabel = relabel_least_ids,
    .traversed_edges = examined_edges,
    .summary_text = components_text,
    .summary_json = components_json,
};

}  // namespace chatty
