// k-core decomposition: the coreness of every vertex of an undirected graph.
#include "apps/kcore/app.h"

#include <algorithm>
#include <cstdio>

#include "apps/host_run.h"
#include "apps/json.h"
#include "apps/kcore/program.h"
#include "apps/kcore/reference.h"
#include "apps/summaries.h"

namespace chatty {

namespace {

void check(const Graph& g, const EngineOptions&) {
  CHATTY_CHECK(!g.directed(), "kcore needs an undirected graph (use --symmetrize)");
}

void run_host(const AppRun& r, AppOutput& out) { out.ints = run_on_host(r, KcoreProgram{}, out); }

// Coreness is locally consistent: a vertex of coreness k has at least k
// neighbours of coreness >= k (its k-core), and fewer than k + 1 of
// coreness >= k + 1 (else it would lie in the (k+1)-core). All zeros pass
// that too, so the reference decides the rest.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions&) {
  const std::vector<uint32_t>& core = out.ints;
  const Csr& c = g.out();
  if (core.size() == c.num_vertices())
    for (vid_t v = 0; v < c.num_vertices(); ++v) {
      uint64_t here = 0, above = 0;
      for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) {
        here += core[c.targets[e]] >= core[v];
        above += core[c.targets[e]] > core[v];
      }
      if (here < core[v])
        return fail_at(v,
                       "coreness " + show_value(core[v]) + " but only " + std::to_string(here) + " neighbours as high",
                       out.ids);
      if (above > core[v])
        return fail_at(v,
                       "coreness " + std::to_string(core[v]) + " but " + std::to_string(above) +
                           " neighbours higher: it lies in a deeper core",
                       out.ids);
    }
  return validate_exact(core, reference::kcore(g), "coreness", out.ids);
}

struct Cores {
  uint32_t degeneracy = 0;
  uint64_t in_top = 0;  // vertices of the degeneracy-core
};

Cores cores(const std::vector<uint32_t>& core) {
  Cores k;
  for (uint32_t x : core) k.degeneracy = std::max(k.degeneracy, x);
  for (uint32_t x : core) k.in_top += x == k.degeneracy;
  return k;
}

std::string text(const AppOutput& out) {
  const Cores k = cores(out.ints);
  char b[128];
  std::snprintf(b, sizeof b, "degeneracy %u (the %u-core has %lu vertices)", k.degeneracy, k.degeneracy,
                (unsigned long)k.in_top);
  return b;
}

JsonValue json(const AppOutput& out) {
  const Cores k = cores(out.ints);
  JsonObject j;
  j.add("degeneracy", uint64_t(k.degeneracy)).add("top_core_vertices", k.in_top);
  return j.value();
}

}  // namespace

extern const AppSpec app_kcore;
const AppSpec app_kcore{
    .name = "kcore",
    .alias = "coreness",
    .about = "k-core decomposition: the coreness of every vertex (h-index iteration); undirected graphs",
    .python_name = "kcore",
    .python_doc = "Core number of every vertex (on an undirected graph).",
    .networkx = "core_number k_core k_shell k_crust k_corona",
    .needs_in_edges = true,
    .messages = message_shape<KcoreProgram>(),
    .check = check,
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_kcore_gpu),
    .validate = validate,
    .traversed_edges = gathered_edges,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
