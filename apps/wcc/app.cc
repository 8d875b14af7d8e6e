// WCC: every vertex labelled with the least vertex id of its weakly
// connected component.
#include "apps/wcc/app.h"

#include <algorithm>
#include <cstdio>

#include "apps/host_run.h"
#include "apps/json.h"
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
  // A label names a vertex: shown in the input's ids.
  const auto named = [&](uint32_t l) { return l < c.num_vertices() ? std::to_string(out.id_of(l)) : show_value(l); };
  if (label.size() != c.num_vertices()) return validate_exact(label, reference::wcc(g), "label", ids);
  for (vid_t v = 0; v < c.num_vertices(); ++v)
    if (label[v] > v || label[label[v]] != label[v])
      return fail_at(v, "label " + named(label[v]) + " is not the least id of its component", ids);
  for (vid_t u = 0; u < c.num_vertices(); ++u)
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
      if (label[c.targets[e]] != label[u])
        return fail_at(c.targets[e],
                       "label " + named(label[c.targets[e]]) + " differs from vertex " + std::to_string(out.id_of(u)) +
                           "'s " + named(label[u]) + " across an edge",
                       ids);
  return validate_exact(label, reference::wcc(g), "label", ids);
}

// A component's label is its least vertex id, which relabelling changes.
void relabel(AppOutput& out, const std::vector<vid_t>& old_of_new) {
  const size_t n = out.ints.size();
  std::vector<uint32_t> least(n, kInfinity);
  for (size_t v = 0; v < n; ++v)
    if (out.ints[v] < n) least[out.ints[v]] = std::min<uint32_t>(least[out.ints[v]], old_of_new[v]);
  for (size_t v = 0; v < n; ++v)
    if (out.ints[v] < n) out.ints[v] = least[out.ints[v]];
}

struct Components {
  uint64_t count = 0, largest = 0;
};

Components components(const std::vector<uint32_t>& label) {
  std::vector<uint64_t> size(label.size(), 0);
  for (uint32_t l : label)
    if (l < size.size()) ++size[l];
  Components c;
  for (uint64_t k : size)
    if (k) ++c.count, c.largest = std::max(c.largest, k);
  return c;
}

std::string text(const AppOutput& out) {
  const Components c = components(out.ints);
  char b[256];
  std::snprintf(b, sizeof b, "%lu component%s, the largest %lu vertices (%.1f %%)", (unsigned long)c.count,
                c.count == 1 ? "" : "s", (unsigned long)c.largest,
                out.ints.empty() ? 0.0 : 100.0 * double(c.largest) / double(out.ints.size()));
  return b;
}

JsonValue json(const AppOutput& out) {
  const Components c = components(out.ints);
  JsonObject j;
  j.add("components", c.count).add("largest", c.largest);
  return j.value();
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
    .relabel = relabel,
    .traversed_edges = traversed,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
