// What the Louvain and Leiden apps share (apps/louvain/app.cc,
// apps/leiden/app.cc): the undirected check, the run with its figures,
// and the verifier's steps around each app's own reference.
#pragma once

#include <cmath>
#include <cstdio>
#include <vector>

#include "apps/host_run.h"
#include "apps/labels.h"
#include "apps/louvain/program.h"
#include "apps/louvain/reference.h"
#include "apps/louvain/run_communities.h"
#include "runtime/base/status.h"

namespace chatty::louvain {

inline void check_undirected(const Graph& g, const char* app) {
  CHATTY_CHECK(!g.directed(), std::string(app) + " needs an undirected graph (use --symmetrize)");
}

template <typename P>
void run_communities(const AppRun& r, AppOutput& out) {
  run_communities_by<P>(r, out, [&](const P& program) { return run_on_host(r, program, out); });
}

using Reference = reference::LouvainResult (*)(const Graph&, const EngineOptions& opt);

// The labels name their communities' least ids; `also` (optional) holds;
// the modularity the run reports is its communities', recomputed; then the
// communities and the levels equal `reference`'s. `checked` names what
// `also` checked, for the PASS line.
inline Validation validate_communities(const AppOutput& out, const Graph& g, const EngineOptions& opt,
                                       Reference reference, Validation (*also)(const AppOutput&, const Graph&),
                                       const char* checked) {
  if (out.ints.size() != g.num_vertices())
    return validate_exact(out.ints, std::vector<uint32_t>(g.num_vertices()), "community");
  if (Validation least = check_least_labels(out, "community"); !least.ok) return least;
  if (also)
    if (Validation v = also(out, g); !v.ok) return v;
  const double q = reference::modularity(g, out.ints, opt.resolution);
  const double reported = out.figure("modularity");
  char b[240];
  if (!(std::fabs(q - reported) <= 1e-9)) {
    std::snprintf(b, sizeof b, "FAIL: the run reports modularity %.12g, its communities have %.12g", reported, q);
    return {false, b};
  }
  const reference::LouvainResult want = reference(g, opt);
  if (Validation same = validate_exact(out.ints, want.labels, "community", out.ids); !same.ok) return same;
  if (out.figure("levels") != double(want.levels)) {
    std::snprintf(b, sizeof b, "FAIL: the run took %g levels, the sequential reference %u", out.figure("levels"),
                  want.levels);
    return {false, b};
  }
  std::snprintf(b, sizeof b,
                "PASS (modularity %.6f, recomputed from the communities; %severy vertex's community and the %u "
                "levels as the sequential reference's)",
                q, checked, want.levels);
  return {true, b};
}

}  // namespace chatty::louvain
