// Betweenness centrality (GAP's `bc`, Brandes): each vertex's share of the
// shortest paths from the run's sources, summed over them.
#include "apps/bc/app.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <utility>

#include "apps/bc/brandes.h"
#include "apps/bc/program.h"
#include "apps/bc/reference.h"
#include "apps/bc/scale.h"
#include "apps/host_run.h"
#include "apps/json.h"
#include "apps/registry.h"
#include "apps/summaries.h"
#include "runtime/base/status.h"

namespace chatty {

std::vector<double> scaled_bc(std::vector<double> score, const Graph& g, std::span<const vid_t> sources,
                              BcScale scale) {
  const bc::Factors f = bc::factors(scale, g.num_vertices(), g.directed(), sources.size());
  if (f.source == 1 && f.other == 1) return score;
  std::vector<char> is_source(score.size(), 0);
  for (vid_t s : sources) is_source[s] = 1;
  for (size_t v = 0; v < score.size(); ++v) score[v] *= is_source[v] ? f.source : f.other;
  return score;
}

std::vector<double> BcProgram::on_host(const Graph& g, host::HostOperators& h) const {
  // Ranks each run every ranks-th source on their devices.
  const std::vector<vid_t> mine = h.share().rank_items(sources);
  return bc::brandes(h, g, mine).score;
}

void take_bc_scores(std::vector<double> score, const AppRun& r, AppOutput& out) {
  // Path counts grow exponentially with depth (a 1000 x 1000 grid has
  // C(1998, 999) ~ 1e600 between opposite corners): past a double's range
  // the scores are meaningless, and said so.
  for (double s : score)
    CHATTY_CHECK(std::isfinite(s),
                 "bc: the shortest-path counts overflow a double (more than 1.8e308 paths between two vertices): "
                 "the scores cannot be represented");
  score = scaled_bc(std::move(score), r.g, r.all_sources(), r.opt.bc_scale);
  out.ranks.assign(score.begin(), score.end());
}

Validation check_bc_scores(const AppOutput& out, const Graph& g, const std::vector<vid_t>& sources, BcScale scale,
                           std::vector<double> raw, const char* what) {
  const std::vector<double> want = scaled_bc(std::move(raw), g, sources, scale);
  if (want.size() != out.ranks.size())
    return {false,
            "FAIL: " + std::to_string(out.ranks.size()) + " scores for " + std::to_string(want.size()) + " vertices"};
  // Errors relative to the score, or to what one path's share of a raw
  // sum comes to in this convention, whichever is larger.
  const double floor = bc::factors(scale, g.num_vertices(), g.directed(), sources.size()).other;
  double worst = 0;
  size_t at = 0;
  for (size_t v = 0; v < want.size(); ++v) {
    const double err = std::abs(double(out.ranks[v]) - want[v]) / std::max(floor, std::abs(want[v]));
    if (err > worst) worst = err, at = v;
  }
  char b[200];
  std::snprintf(b, sizeof b, "relative error %.2g at vertex %llu (%.9g against the reference's %.9g)", worst,
                static_cast<unsigned long long>(out.id_of(vid_t(at))), double(out.ranks[at]), want[at]);
  // Scores are 4-byte floats of sums taken in double.
  if (worst > 1e-6) return {false, std::string("FAIL: ") + b};
  return {true, std::string("PASS (scores match the reference's ") + what + " from " + std::to_string(sources.size()) +
                    " source" + (sources.size() > 1 ? "s" : "") + "; worst " + b + ")"};
}

namespace {

void run_host(const AppRun& r, AppOutput& out) {
  take_bc_scores(run_on_host(r, BcProgram{r.all_sources()}, out), r, out);
}

Validation validate(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions& opt) {
  const std::vector<vid_t> sources = out.sources_or(source);
  return check_bc_scores(out, g, sources, opt.bc_scale, reference::betweenness(g, sources), "Brandes");
}

std::vector<size_t> top(const AppOutput& out, size_t k) {
  std::vector<size_t> v(out.ranks.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = i;
  k = std::min(k, v.size());
  std::partial_sort(v.begin(), v.begin() + long(k), v.end(), [&](size_t a, size_t b) {
    return out.ranks[a] > out.ranks[b] || (out.ranks[a] == out.ranks[b] && a < b);
  });
  v.resize(k);
  return v;
}

std::string text(const AppOutput& out) {
  std::string t = "top scores:";
  const std::vector<size_t> best = top(out, 5);
  const double max = best.empty() ? 0 : double(out.ranks[best[0]]);
  for (size_t v : best) {
    char b[96];
    std::snprintf(b, sizeof b, " %llu (%.6g, %.3f of the top)", static_cast<unsigned long long>(out.id_of(vid_t(v))),
                  double(out.ranks[v]), max > 0 ? double(out.ranks[v]) / max : 0.0);
    t += b;
  }
  return t;
}

JsonValue json(const AppOutput& out) {
  std::vector<uint64_t> ids;
  std::vector<float> scores;
  for (size_t v : top(out, 10)) ids.push_back(out.id_of(vid_t(v))), scores.push_back(out.ranks[v]);
  JsonObject j;
  j.add("top_vertices", ids).add("top_scores", scores).add("max_score", scores.empty() ? 0.0f : scores[0]);
  j.add("sources", uint64_t(std::max<size_t>(1, out.sources.size())));
  return j.value();
}

}  // namespace

extern const AppSpec app_bc;
const AppSpec app_bc{
    .name = "bc",
    .alias = "betweenness",
    .about =
        "betweenness centrality (Brandes, GAP's bc): from --source, --sources=N random ones, a list (3,17,42 or 5,) or "
        "all; scores count ordered pairs, an undirected pair twice (--bc_scale: NetworkX's conventions)",
    .python_name = "betweenness",
    .python_doc =
        "Betweenness centrality (Brandes): each vertex's dependencies summed over the sources. From "
        "`source` (an id), or `sources`: \"all\" (exact), a count of random ones (from seed=), or a "
        "list (or array) of ids of any length. bc_scale=\"ordered\" (default) counts ordered pairs, "
        "so an undirected graph's pairs count both ways (GAP's); \"pairs\" is NetworkX's "
        "normalized=False and \"normalized\" its normalized=True, sampled sources scaled as NetworkX "
        "scales them. stats[\"summary\"][\"max_score\"] is the largest (GAP normalises by it).",
    .networkx = "betweenness_centrality",
    .needs_source = true,
    .sources_at_once = true,
    .whole_graph = true,
    .values = Values::kReals,
    .python_double = true,
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_bc_gpu),
    .validate = validate,
    .traversed_edges = examined_edges,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
