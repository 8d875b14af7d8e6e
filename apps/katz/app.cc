// Katz centrality: every vertex's attenuated count of the walks ending at
// it, to --tolerance, in NetworkX's normalisation.
#include "apps/katz/app.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "apps/host_run.h"
#include "apps/katz/reference.h"
#include "apps/summaries.h"
#include "apps/unit_norm.h"

namespace chatty {

void normalize_katz(const EngineOptions& opt, std::vector<float>& x) {
  if (opt.katz_normalized) to_unit_norm(x);
}

eid_t max_in_degree(const Graph& g) {
  const Csr& in = g.in();
  eid_t most = 0;
  for (vid_t v = g.rows_lo(); v < g.rows_hi(); ++v) most = std::max(most, in.degree(v));
  return most;
}

namespace {

void run_host(const AppRun& r, AppOutput& out) {
  out.ranks = run_on_host(r, katz_program(r), out);
  normalize_katz(r.opt, out.ranks);
}

// Every value finite (and, for beta >= 0, not negative: the walks' counts
// only add), then the L1 distance to a double reference with the same
// stopping rule, scaled alike, within a bound that allows one iteration
// more or less and the float rounding of the sums.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions& opt) {
  const std::vector<float>& got = out.ranks;
  for (size_t v = 0; v < got.size(); ++v)
    if (!std::isfinite(got[v]) || (opt.katz_beta >= 0 && got[v] < 0))
      return fail_at(v, "value " + std::to_string(got[v]) + " is not a count of walks", out.ids);
  bool converged = false;
  const double alpha = katz_alpha(opt, max_in_degree(g));
  std::vector<double> want = reference::katz(g, alpha, opt.katz_beta, opt.tolerance, opt.max_iters, &converged);
  if (got.size() != want.size()) return fail_at(got.size(), "past the last value of the reference");
  double scale = 1, squares = 0, mass = 0;
  for (double w : want) squares += w * w, mass += std::fabs(w);
  if (opt.katz_normalized && squares > 0) scale = 1 / std::sqrt(squares);
  double l1 = 0, worst = 0;
  size_t worst_at = 0;
  for (size_t v = 0; v < got.size(); ++v) {
    const double d = std::fabs(double(got[v]) - want[v] * scale);
    l1 += d;
    if (d > worst) worst = d, worst_at = v;
  }
  const double bound = scale * (4 * opt.tolerance + std::ldexp(mass, -18));
  Validation v;
  v.ok = l1 <= bound;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: L1 distance to reference %.3g (bound %.3g), worst vertex %llu (%.9g vs %.9g)",
                v.ok ? "PASS" : "FAIL", l1, bound,
                static_cast<unsigned long long>(got.empty() ? 0 : out.id_of(vid_t(worst_at))),
                got.empty() ? 0.0 : double(got[worst_at]), want.empty() ? 0.0 : want[worst_at] * scale);
  v.message = buf;
  return v;
}

std::string text(const AppOutput& out) { return top_values_text(out, "value"); }
JsonValue json(const AppOutput& out) { return top_values_json(out, "value"); }

}  // namespace

extern const AppSpec app_katz;
const AppSpec app_katz{
    .name = "katz",
    .about = "Katz centrality by iteration (--katz_alpha, --katz_beta) to --tolerance (L1), at most --max_iters",
    .python_name = "katz",
    .python_doc =
        "Katz centrality: x = katz_alpha * A^T x + katz_beta from x = 0 (katz_alpha=0: 0.9 / the largest in-degree, "
        "katz_beta=1.0, "
        "tolerance=1e-6 on the L1 change, max_iters=100), scaled to unit L2 norm unless "
        "katz_normalized=False (float32).",
    .networkx = "katz_centrality",
    .needs_in_edges = true,
    .reorders = true,
    .values = Values::kReals,
    .python_double = true,
    .messages = message_shape<KatzProgram>(),
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_katz_gpu),
    .validate = validate,
    .traversed_edges = gathered_edges,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
