#include "apps/validate.h"

#include <cmath>
#include <cstdio>

#include "apps/references.h"

namespace chatty {

Validation validate_exact(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want, const char* what) {
  Validation v;
  if (got.size() != want.size()) {
    v.message = "FAIL: " + std::to_string(got.size()) + " values, reference has " + std::to_string(want.size());
    return v;
  }
  auto show = [](uint32_t x) { return x == kInfinity ? std::string("inf") : std::to_string(x); };
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) {
      v.message =
          "FAIL: vertex " + std::to_string(i) + ": " + what + " " + show(got[i]) + ", reference " + show(want[i]);
      return v;
    }
  v.ok = true;
  v.message = std::string("PASS (") + what + " of all " + std::to_string(got.size()) + " vertices match the reference)";
  return v;
}

Validation validate_pagerank(const std::vector<float>& got, const Graph& g, const EngineOptions& opt) {
  const std::vector<double> want = reference::pagerank(g, opt.damping, opt.tolerance, opt.max_iters);
  double l1 = 0, worst = 0, sum = 0;
  size_t worst_at = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double d = std::fabs(double(got[i]) - want[i]);
    l1 += d;
    sum += got[i];
    if (d > worst) worst = d, worst_at = i;
  }
  const double bound = 4 * opt.tolerance + 2e-6;
  char buf[256];
  Validation v;
  v.ok = l1 <= bound && std::fabs(sum - 1.0) < 1e-4;
  std::snprintf(buf, sizeof buf,
                "%s: L1 distance to reference %.3g (bound %.3g), sum of ranks %.9f, worst vertex %zu (%.9g vs %.9g)",
                v.ok ? "PASS" : "FAIL", l1, bound, sum, worst_at, got.empty() ? 0.0 : double(got[worst_at]),
                want.empty() ? 0.0 : want[worst_at]);
  v.message = buf;
  return v;
}

}  // namespace chatty
