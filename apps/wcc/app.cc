// WCC: every vertex labelled with the least vertex id of its weakly
// connected component.
#include "apps/wcc/app.h"

#include "apps/host_run.h"
#include "apps/labels.h"
#include "apps/wcc/program.h"
#include "apps/wcc/reference.h"

namespace chatty {

namespace {

void check(const Graph& g, const EngineOptions& opt) {
  CHATTY_CHECK(opt.union_find || !g.directed(),
               "wcc by label propagation needs an undirected graph (use --symmetrize)");
}

void run_host(const AppRun& r, AppOutput& out) { out.ints = run_on_host(r, WccProgram{}, out); }

// GAP's CC check: the two ends of every edge share a label, and a label is
// the least id of its class (a vertex of the class labelled by itself).
// The reference then shows that no two classes should have been one.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions&) {
  const std::vector<uint32_t>& label = out.ints;
  const Csr& c = g.out();
  const VertexIds* ids = out.ids;
  if (label.size() != c.num_vertices()) return validate_exact(label, reference::wcc(g), "label", ids);
  if (Validation least = check_least_labels(out, "component"); !least.ok) return least;
  for (vid_t u = 0; u < c.num_vertices(); ++u)
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
      if (label[c.targets[e]] != label[u])
        return fail_at(c.targets[e],
                       "label " + std::to_string(out.id_of(label[c.targets[e]])) + " differs from vertex " +
                           std::to_string(out.id_of(u)) + "'s " + std::to_string(out.id_of(label[u])) +
                           " across an edge",
                       ids);
  return validate_exact(label, reference::wcc(g), "label", ids);
}

uint64_t traversed(const AppOutput&, const Graph& g) { return g.num_edges(); }

}  // namespace

extern const AppSpec app_wcc;
const AppSpec app_wcc{
    .name = "wcc",
    .alias = "cc",
    .about = "weakly connected components: the least vertex id of each (union-find, Afforest)",
    .python_name = "wcc",
    .python_doc =
        "Weakly connected components: each vertex's label is the least input id (the first NetworkX "
        "node, by position) of its component.",
    .networkx =
        "connected_components weakly_connected_components number_connected_components "
        "number_weakly_connected_components is_connected is_weakly_connected node_connected_component",
    .messages = message_shape<WccProgram>(),
    .check = check,
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_wcc_gpu),
    .validate = validate,
    .relabel = relabel_least_ids,
    .traversed_edges = traversed,
    .summary_text = components_text,
    .summary_json = components_json,
};

}  // namespace chatty
