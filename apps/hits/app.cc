// HITS: hub and authority scores (power.h), NetworkX's hits: each summed to
// 1; --output writes "id hub authority".
#include "apps/hits/app.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "apps/hits/power.h"
#include "apps/hits/program.h"
#include "apps/hits/reference.h"
#include "apps/host_run.h"
#include "apps/json.h"
#include "apps/summaries.h"

namespace chatty {

std::vector<double> HitsProgram::on_host(const Graph& g, host::HostOperators& h) const {
  if (h.share().rank != 0) {
    h.note("rank 0 computes the scores");
    return std::vector<double>(2 * size_t(g.num_vertices()), 0.0);
  }
  hits::Outcome found;
  std::vector<double> both = hits::scores(h, g, *this, found);
  if (outcome) *outcome = found;
  return both;
}

void take_hits(const std::vector<double>& both, const hits::Outcome& found, size_t n, AppOutput& out) {
  out.ranks.assign(both.begin(), both.begin() + std::ptrdiff_t(n));
  out.second.assign(both.begin() + std::ptrdiff_t(n), both.end());
  if (!found.computed) return;
  if (!out.multi.steps.empty()) out.multi.steps[0].supersteps = uint64_t(found.iterations);
  out.multi.converged = found.converged;
  out.multi.last_change = found.last_change;
}

namespace {

void run_host(const AppRun& r, AppOutput& out) {
  hits::Outcome found;
  take_hits(run_on_host(r, HitsProgram{r.opt.tolerance, r.opt.max_iters, &found}, out), found, r.g.num_vertices(), out);
}

// Every value finite, not negative, each vector summing to 1 (or all zero
// without edges); then the singular vectors' equations, h = A a / |A a|_1
// and a = A^T h / |A^T h|_1, to what the stopping rule and float rounding
// leave; then the L1 distance to the sequential reference's scores.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions& opt) {
  const Csr& c = g.out();
  const size_t n = c.num_vertices();
  if (out.ranks.size() != n || out.second.size() != n) return fail_at(0, "not a hub and an authority per vertex");
  const std::vector<float>& hub = out.ranks;
  const std::vector<float>& auth = out.second;
  for (size_t v = 0; v < n; ++v)
    if (!std::isfinite(hub[v]) || hub[v] < 0 || !std::isfinite(auth[v]) || auth[v] < 0)
      return fail_at(v, "a hub or authority score is negative or not finite", out.ids);
  std::vector<double> ah(n, 0), ta(n, 0);  // A a and A^T h
  for (vid_t u = 0; u < n; ++u)
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
      const double w = c.weights.empty() ? 1.0 : double(c.weights[e]);
      ah[u] += w * double(auth[c.targets[e]]);
      ta[c.targets[e]] += w * double(hub[u]);
    }
  // |x / sum(x) - y|_1
  const auto off = [n](const std::vector<double>& x, const std::vector<float>& y) {
    double s = 0, d = 0;
    for (double v : x) s += v;
    for (size_t v = 0; v < n; ++v) d += std::fabs((s > 0 ? x[v] / s : 0.0) - double(y[v]));
    return d;
  };
  const double residual = off(ah, hub) + off(ta, auth);
  const double residual_bound = 4 * opt.tolerance + std::ldexp(1.0, -16);
  const reference::HitsScores want = reference::hits(g, opt.tolerance, opt.max_iters);
  double l1 = 0;
  for (size_t v = 0; v < n; ++v)
    l1 += std::fabs(double(hub[v]) - want.hubs[v]) + std::fabs(double(auth[v]) - want.authorities[v]);
  const double l1_bound = 4 * opt.tolerance + std::ldexp(1.0, -16);
  Validation r;
  // A run stopped by --max_iters is the reference's iterate of that step,
  // not yet the vectors (exit 4 says it did not converge).
  r.ok = (residual <= residual_bound || !out.multi.converged) && l1 <= l1_bound;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%s: residual of h ~ A a and a ~ A^T h %.3g (bound %.3g), L1 distance to the sequential reference "
                "(%d iterations) %.3g (bound %.3g)",
                r.ok ? "PASS" : "FAIL", residual, residual_bound, want.iterations, l1, l1_bound);
  r.message = buf;
  return r;
}

std::string text(const AppOutput& out) {
  return top_values_text(out, out.ranks, "hubs") + "; " + top_values_text(out, out.second, "authorities");
}

JsonValue json(const AppOutput& out) {
  return JsonObject()
      .add("top_hubs", top_values_list(out, out.ranks, "hub"))
      .add("top_authorities", top_values_list(out, out.second, "authority"))
      .value();
}

uint64_t traversed(const AppOutput& out, const Graph& g) { return 2 * g.num_edges() * out.multi.supersteps(); }

}  // namespace

extern const AppSpec app_hits;
const AppSpec app_hits{
    .name = "hits",
    .about = "HITS hubs and authorities (power iteration to --tolerance, at most --max_iters); weighted",
    .python_name = "hits",
    .python_doc =
        "HITS hubs and authorities (NetworkX's hits): power iteration a = A^T h, h = A a from uniform "
        "vectors, each summed to 1, until the L1 change of both is below tolerance (default 1e-6; at most "
        "max_iters=100), over the graph's weights where it has them. values are the hubs, .authorities "
        "the authorities.",
    .networkx = "hits",
    .reads_weights = true,
    .needs_in_edges = true,
    .whole_graph = true,
    .values = Values::kReals,
    .second = "authorities",
    .python_double = true,
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_hits_gpu),
    .validate = validate,
    .traversed_edges = traversed,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
