// Personalised PageRank: the stationary rank of every vertex for a random
// walk that restarts at the seeds (--source or --sources), to --tolerance.
#include "apps/ppr/app.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include "apps/host_run.h"
#include "apps/ppr/reference.h"
#include "apps/summaries.h"
#include "runtime/base/in_sum.h"
#include "runtime/base/status.h"

namespace chatty {

namespace {

std::vector<vid_t> distinct_seeds(std::span<const vid_t> sources) {
  std::vector<vid_t> s(sources.begin(), sources.end());
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

}  // namespace

PprProgram ppr_program(const AppRun& r) {
  const std::vector<vid_t> seeds = distinct_seeds(r.all_sources());
  CHATTY_CHECK(seeds.size() <= size_t(PprProgram::kMaxSeeds),
               "ppr: " + std::to_string(seeds.size()) + " seeds; at most " + std::to_string(PprProgram::kMaxSeeds) +
                   " (--sources)");
  PprProgram p{r.g.num_vertices(), r.opt.damping, r.opt.tolerance, r.opt.max_iters};
  p.seeds = int(seeds.size());
  std::copy(seeds.begin(), seeds.end(), p.seed);
  return p;
}

std::vector<float> ppr_ranks(std::vector<float> values) {
  for (float& x : values) x = float(PprProgram::rank(x));
  return values;
}

namespace {

void run_host(const AppRun& r, AppOutput& out) { out.ranks = ppr_ranks(run_on_host(r, ppr_program(r), out)); }

// Ranks are not negative and sum to 1, each seed's at least its teleport
// share (1 - d) / k; then the L1 distance to a double reference with the
// same stopping rule, within PageRank's bound (one iteration more or less,
// float rounding).
Validation validate(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions& opt) {
  const std::vector<float>& got = out.ranks;
  const std::vector<vid_t> seeds = distinct_seeds(out.sources_or(source));
  double sum = 0;
  for (size_t v = 0; v < got.size(); ++v) {
    if (!(got[v] >= 0)) return fail_at(v, "rank " + std::to_string(got[v]) + " is negative", out.ids);
    sum += got[v];
  }
  const double share = (1 - opt.damping) / double(seeds.size());
  for (vid_t s : seeds)
    if (!(double(got[s]) >= share * (1 - 1e-4)))
      return fail_at(s, "a seed's rank " + std::to_string(got[s]) + " is below its teleport share", out.ids);
  const std::vector<double> want =
      reference::personalized_pagerank(g, seeds, opt.damping, opt.tolerance, opt.max_iters);
  if (got.size() != want.size()) return fail_at(got.size(), "past the last rank of the reference");
  double l1 = 0;
  for (size_t v = 0; v < got.size(); ++v) l1 += std::fabs(double(got[v]) - want[v]);
  const double bound = 4 * opt.tolerance + double(kFloatRow + 1) * std::ldexp(1.0, -24) / (1 - opt.damping);
  Validation r;
  r.ok = l1 <= bound && std::fabs(sum - 1) < 1e-4;
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s: L1 distance to reference %.3g (bound %.3g), sum of ranks %.9f, %zu seeds",
                r.ok ? "PASS" : "FAIL", l1, bound, sum, seeds.size());
  r.message = buf;
  return r;
}

std::string text(const AppOutput& out) { return top_values_text(out, "rank"); }
JsonValue json(const AppOutput& out) { return top_values_json(out, "rank"); }

}  // namespace

extern const AppSpec app_ppr;
const AppSpec app_ppr{
    .name = "ppr",
    .about = "personalised PageRank: restarts at the seeds (--source, or --sources: a list, up to 64) to --tolerance",
    .python_name = "personalized_pagerank",
    .python_doc =
        "Personalised PageRank: the walk restarts at the seeds (source=, or sources= a list of up to 64 "
        "ids, equal shares; the dangling mass goes to them too, as NetworkX's pagerank with a "
        "personalization). damping=0.85, tolerance=1e-6 on the L1 change, max_iters=100 (float32).",
    .needs_source = true,
    .sources_at_once = true,
    .needs_in_edges = true,
    .values = Values::kReals,
    .messages = message_shape<PprProgram>(),
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_ppr_gpu),
    .validate = validate,
    .traversed_edges = gathered_edges,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
