// LPA: label propagation communities, each vertex labelled by the id whose
// label its community took (semi_sync.h), NetworkX's
// label_propagation_communities exactly.
#include "apps/lpa/app.h"

#include <vector>

#include "apps/host_run.h"
#include "apps/labels.h"
#include "apps/lpa/program.h"
#include "apps/lpa/reference.h"
#include "apps/lpa/semi_sync.h"
#include "apps/summaries.h"

namespace chatty {

std::vector<uint64_t> LpaProgram::on_host(const Graph& g, host::HostOperators& h) const {
  return labels_on_rank_zero(h, g.num_vertices(), "communities", [&] { return lpa::communities(h, g.out()); });
}

namespace {

void check(const Graph& g, const EngineOptions&) {
  CHATTY_CHECK(!g.directed(), "lpa needs an undirected graph (use --symmetrize)");
}

void run_host(const AppRun& r, AppOutput& out) {
  const std::vector<uint64_t> label = run_on_host(r, LpaProgram{}, out);
  out.ints.assign(label.begin(), label.end());
}

// The stopping rule holds (every vertex with neighbours holds one of their
// most frequent labels), then the labels equal the sequential run's.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions&) {
  const Csr& c = g.out();
  const std::vector<uint32_t> want = reference::label_propagation(g);
  if (out.ints.size() == want.size()) {
    lpa::Tally tally;
    for (vid_t v = 0; v < c.num_vertices(); ++v) {
      if (c.degree(v) == 0) continue;
      lpa::most_frequent(c, out.ints.data(), v, tally);
      if (!lpa::among(tally.best, out.ints[v]))
        return fail_at(
            v, "its label " + std::to_string(out.id_of(out.ints[v])) + " is not one of its neighbours' most frequent",
            out.ids);
    }
  }
  return validate_exact(out.ints, want, "label", out.ids);
}

// A label names the vertex it started at.
void relabel(AppOutput& out, const std::vector<vid_t>& old_of_new) {
  for (uint32_t& l : out.ints) l = old_of_new[l];
}

}  // namespace

extern const AppSpec app_lpa;
const AppSpec app_lpa{
    .name = "lpa",
    .about = "label propagation communities (semi-synchronous, as NetworkX's label_propagation_communities)",
    .python_name = "label_propagation",
    .python_doc =
        "Label propagation communities, semi-synchronous (NetworkX's label_propagation_communities): each "
        "vertex's label is the input id (the NetworkX node, by position) whose label its community took.",
    .networkx = "label_propagation_communities asyn_lpa_communities",
    .whole_graph = true,
    .check = check,
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_lpa_gpu),
    .validate = validate,
    .relabel = relabel,
    .traversed_edges = examined_edges,
    .summary_text = [](const AppOutput& out) { return classes_text(out, "community", "communities"); },
    .summary_json = [](const AppOutput& out) { return classes_json(out, "communities"); },
};

}  // namespace chatty
