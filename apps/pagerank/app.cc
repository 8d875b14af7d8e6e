// PageRank: the stationary rank of every vertex, to --tolerance.
#include "apps/pagerank/app.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "apps/host_run.h"
#include "apps/json.h"
#include "apps/pagerank/reference.h"
#include "apps/summaries.h"

namespace chatty {

namespace {

void run_host(const AppRun& r, AppOutput& out) { out.ranks = run_on_host(r, pagerank_program(r), out); }

// Ranks sum to 1 and none is below the teleport share (1 - d) / |V|; then
// the L1 distance to a double reference with the same stopping rule, within
// a bound that allows one extra or missing iteration and float rounding.
// The rounding: a superstep puts at most kFloatRow + 1 units of a float's
// last place on each rank (the program's gather), and an iteration shrinks
// an error by d, so at the fixed point it is within that over 1 - d.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions& opt) {
  const std::vector<float>& got = out.ranks;
  const double floor = (1 - opt.damping) / double(std::max<vid_t>(1, g.num_vertices()));
  for (size_t v = 0; v < got.size(); ++v)
    if (!(double(got[v]) >= floor * (1 - 1e-4)))
      return fail_at(v, "rank " + std::to_string(got[v]) + " below the teleport share " + std::to_string(floor),
                     out.ids);
  const std::vector<double> want = reference::pagerank(g, opt.damping, opt.tolerance, opt.max_iters);
  if (got.size() != want.size()) return fail_at(got.size(), "past the last rank of the reference");
  double l1 = 0, worst = 0, sum = 0;
  size_t worst_at = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double d = std::fabs(double(got[i]) - want[i]);
    l1 += d;
    sum += got[i];
    if (d > worst) worst = d, worst_at = i;
  }
  const double unit = std::ldexp(1.0, -24);  // a float's rounding, relative
  const double bound = 4 * opt.tolerance + double(PageRankProgram::kFloatRow + 1) * unit / (1 - opt.damping);
  char buf[256];
  Validation v;
  v.ok = l1 <= bound && std::fabs(sum - 1.0) < 1e-4;
  std::snprintf(buf, sizeof buf,
                "%s: L1 distance to reference %.3g (bound %.3g), sum of ranks %.9f, worst vertex %llu (%.9g vs %.9g)",
                v.ok ? "PASS" : "FAIL", l1, bound, sum,
                static_cast<unsigned long long>(got.empty() ? 0 : out.id_of(vid_t(worst_at))),
                got.empty() ? 0.0 : double(got[worst_at]), want.empty() ? 0.0 : want[worst_at]);
  v.message = buf;
  return v;
}

std::string text(const AppOutput& out) { return top_values_text(out, "rank"); }
JsonValue json(const AppOutput& out) { return top_values_json(out, "rank"); }

}  // namespace

extern const AppSpec app_pagerank;
const AppSpec app_pagerank{
    .name = "pr",
    .alias = "pagerank",
    .about = "PageRank by pull iteration to --tolerance (L1), at most --max_iters steps",
    .python_name = "pagerank",
    .python_doc =
        "PageRank (damping=0.85, tolerance=1e-6 on the L1 change, max_iters=100), dangling mass "
        "spread uniformly; ranks sum to 1 (float32).",
    .networkx = "pagerank",
    .needs_in_edges = true,
    .reorders = true,
    .values = Values::kReals,
    .messages = message_shape<PageRankProgram>(),
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_pagerank_gpu),
    .validate = validate,
    .traversed_edges = gathered_edges,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
