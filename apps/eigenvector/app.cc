// Eigenvector centrality: the Perron vector of A^T + I at unit L2 norm, to
// --tolerance, as NetworkX computes it.
#include "apps/eigenvector/app.h"

#include <cmath>
#include <cstdio>

#include "apps/eigenvector/reference.h"
#include "apps/host_run.h"
#include "apps/summaries.h"

namespace chatty {

namespace {

void run_host(const AppRun& r, AppOutput& out) {
  out.ranks = run_on_host(r, eigenvector_program(r), out);
  to_unit_norm(out.ranks);
}

// Invariants: every value finite and not negative (the Perron vector of a
// non-negative matrix, from a positive start), unit norm, and x an
// eigenvector: with z = (A^T + I) x and mu = x.z, |z - mu x|_1 / mu within
// what the stopping rule leaves (a few tolerances) and float rounding.
// Then the L1 distance to the double reference, within a bound that power
// iterations stopped at different steps of a slow convergence still meet.
// The residual is checked only where the run converged.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions& opt) {
  const std::vector<float>& x = out.ranks;
  const Csr& c = g.out();
  if (x.size() != c.num_vertices()) return fail_at(x.size(), "past the last value of the graph");
  double squares = 0;
  for (size_t v = 0; v < x.size(); ++v) {
    if (!std::isfinite(x[v]) || x[v] < 0)
      return fail_at(v, "value " + std::to_string(x[v]) + " is not a Perron vector's", out.ids);
    squares += double(x[v]) * double(x[v]);
  }
  if (!x.empty() && std::fabs(squares - 1) > 1e-5) return fail_at(0, "the values' L2 norm is not 1");
  std::vector<double> z(x.begin(), x.end());
  for (vid_t u = 0; u < c.num_vertices(); ++u)
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) z[c.targets[e]] += double(x[u]);
  double mu = 0;
  for (size_t v = 0; v < x.size(); ++v) mu += double(x[v]) * z[v];
  double residual = 0;
  for (size_t v = 0; v < x.size(); ++v) residual += std::fabs(z[v] - mu * double(x[v]));
  residual = mu > 0 ? residual / mu : residual;
  const double residual_bound = 4 * opt.tolerance + std::ldexp(1.0, -16);
  const std::vector<double> want = reference::eigenvector(g, opt.tolerance, opt.max_iters);
  double l1 = 0;
  for (size_t v = 0; v < x.size(); ++v) l1 += std::fabs(double(x[v]) - want[v]);
  const double l1_bound = 1e-3;
  Validation r;
  // A run stopped by --max_iters is not an eigenvector yet: it is the
  // reference's iterate of that step (exit 4 says it did not converge).
  r.ok = (residual <= residual_bound || !out.multi.converged) && l1 <= l1_bound;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%s: eigenvalue of A^T + I %.6g, residual |z - mu x|/mu %.3g (bound %.3g), L1 distance to reference "
                "%.3g (bound %.3g)",
                r.ok ? "PASS" : "FAIL", mu, residual, residual_bound, l1, l1_bound);
  r.message = buf;
  return r;
}

std::string text(const AppOutput& out) { return top_values_text(out, "value"); }
JsonValue json(const AppOutput& out) { return top_values_json(out, "value"); }

}  // namespace

extern const AppSpec app_eigenvector;
const AppSpec app_eigenvector{
    .name = "eigenvector",
    .about = "eigenvector centrality by power iteration on A^T + I to --tolerance (L1), at most --max_iters",
    .python_name = "eigenvector",
    .python_doc =
        "Eigenvector centrality: power iteration on A^T + I from the uniform vector, at unit L2 norm "
        "(tolerance=1e-6 on the L1 change of the unit vectors, max_iters=100; float32).",
    .networkx = "eigenvector_centrality",
    .needs_in_edges = true,
    .reorders = true,
    .values = Values::kReals,
    .python_double = true,
    .messages = message_shape<EigenvectorProgram>(),
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_eigenvector_gpu),
    .validate = validate,
    .traversed_edges = gathered_edges,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
