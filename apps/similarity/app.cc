// Similarity (cuGraph's jaccard, overlap and sorensen; NetworkX's
// jaccard_coefficient): a coefficient per pair of vertices of an
// undirected graph, for the pairs --pairs gives, every edge, or each
// vertex's --top_k most similar. --output writes "u v coefficient".
#include "apps/similarity/app.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "apps/host_run.h"
#include "apps/json.h"
#include "apps/similarity/program.h"
#include "apps/similarity/reference.h"
#include "apps/similarity/score.h"
#include "runtime/base/status.h"
#include "runtime/graph/orient.h"
#include "runtime/graph/upper_edges.h"

namespace chatty {

std::vector<double> SimilarityProgram::on_host(const Graph& g, host::HostOperators& h) const {
  const Csr& c = g.out();
  std::vector<double> out;
  if (query && !query->pairs.empty()) {
    out.assign(query->pairs.size(), 0.0);
    similarity::score_pairs(c, measure, query->pairs, h, out);
  } else if (query && query->top_k) {
    similarity::score_top_k(c, measure, query->of, query->top_k, h, out);
  } else {
    similarity::score_edges(g, measure, h, out);
  }
  return out;
}

namespace {

void check(const Graph& g, const EngineOptions&) {
  CHATTY_CHECK(!g.directed(), "similarity compares the neighbourhoods of an undirected graph (use --symmetrize)");
  require_no_parallel_edges(g, "similarity", "which would count a neighbour twice");
}

void run_host(const AppRun& r, AppOutput& out) {
  const PairQuery every_edge;
  const PairQuery& q = r.query ? *r.query : every_edge;
  take_similarity(r, q, run_on_host(r, SimilarityProgram{r.opt.similarity, &q}, out), out);
}

}  // namespace

void take_similarity(const AppRun& r, const PairQuery& q, std::vector<double> v, AppOutput& out) {
  if (!q.pairs.empty()) {
    out.pairs = q.pairs;
    out.scores = std::move(v);
  } else if (q.top_k) {
    const size_t k = q.top_k, items = q.of.empty() ? r.g.num_vertices() : q.of.size();
    for (size_t i = 0; i < items; ++i)
      for (size_t j = 0; j < k && v[(i * k + j) * 2 + 1] > 0; ++j) {
        out.pairs.emplace_back(q.of.empty() ? vid_t(i) : q.of[i], vid_t(v[(i * k + j) * 2 + 1] - 1));
        out.scores.push_back(v[(i * k + j) * 2]);
      }
    out.figures.emplace_back("top_k", double(k));
  } else {
    out.pairs = upper_pairs(r.g.out(), upper_edges(r.g.out()));
    out.scores = std::move(v);
    out.figures.emplace_back("every_edge", 1);
  }
}

namespace {

Validation fail_pair(const AppOutput& out, size_t i, const std::string& why) {
  return {false, "FAIL: pair (" + std::to_string(out.id_of(out.pairs[i].first)) + ", " +
                     std::to_string(out.id_of(out.pairs[i].second)) + "): " + why};
}

// Every pair's coefficient equal to the reference's (the same quotient of
// whole numbers, so exactly); every edge's pair there once where the run
// scored every edge; each vertex's best K the reference's where it ran
// with --top_k.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions& opt) {
  if (out.scores.size() != out.pairs.size()) return {false, "FAIL: not one coefficient per pair"};
  for (size_t i = 0; i < out.pairs.size(); ++i) {
    const auto [u, v] = out.pairs[i];
    const double want = reference::similarity(g, opt.similarity, u, v);
    if (!(out.scores[i] == want))
      return fail_pair(out, i,
                       "coefficient " + std::to_string(out.scores[i]) + ", the reference's " + std::to_string(want));
  }
  if (out.figure("every_edge") == 1) {
    std::vector<VertexPair> got = out.pairs, want;
    for (auto& [u, v] : got)
      if (u > v) std::swap(u, v);
    std::sort(got.begin(), got.end());
    const Csr& c = g.out();
    for (vid_t u = 0; u < c.num_vertices(); ++u)
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
        if (c.targets[e] > u) want.emplace_back(u, c.targets[e]);
    if (got != want)
      return {false, "FAIL: " + std::to_string(got.size()) + " pairs scored, not the graph's " +
                         std::to_string(want.size()) + " edges once each"};
  }
  const double k = out.figure("top_k");
  if (k > 0) {
    std::map<vid_t, std::vector<size_t>> of;
    for (size_t i = 0; i < out.pairs.size(); ++i) of[out.pairs[i].first].push_back(i);
    for (const auto& [s, at] : of) {
      const auto best = reference::most_similar(g, opt.similarity, s);
      if (at.size() != std::min(best.size(), size_t(k)))
        return fail_pair(out, at[0],
                         std::to_string(at.size()) + " most similar listed, the reference finds " +
                             std::to_string(std::min(best.size(), size_t(k))));
      for (size_t j = 0; j < at.size(); ++j)
        if (out.pairs[at[j]].second != best[j].second)
          return fail_pair(out, at[j], "not the reference's " + std::to_string(j + 1) + "th most similar");
    }
  }
  return {true, "PASS (" + std::to_string(out.pairs.size()) + " pairs' coefficients equal the reference's" +
                    (k > 0 ? ", each vertex's best " + std::to_string(int(k)) + " its" : "") + ")"};
}

struct Best {
  size_t at = 0;
  double mean = 0;
};

Best best(const AppOutput& out) {
  Best b;
  for (size_t i = 0; i < out.scores.size(); ++i) {
    b.mean += out.scores[i];
    if (out.scores[i] > out.scores[b.at]) b.at = i;
  }
  if (!out.scores.empty()) b.mean /= double(out.scores.size());
  return b;
}

std::string text(const AppOutput& out) {
  if (out.pairs.empty()) return "no pairs scored";
  const Best b = best(out);
  char line[200];
  std::snprintf(line, sizeof line, "%zu pairs; mean %.6g; the most similar: %llu and %llu (%.6g)", out.pairs.size(),
                b.mean, static_cast<unsigned long long>(out.id_of(out.pairs[b.at].first)),
                static_cast<unsigned long long>(out.id_of(out.pairs[b.at].second)), out.scores[b.at]);
  return line;
}

JsonValue json(const AppOutput& out) {
  JsonObject j;
  j.add("pairs", uint64_t(out.pairs.size()));
  if (!out.pairs.empty()) {
    const Best b = best(out);
    j.add("mean", b.mean)
        .add("most_similar",
             std::vector<uint64_t>{out.id_of(out.pairs[b.at].first), out.id_of(out.pairs[b.at].second)});
    j.add("largest", out.scores[b.at]);
  }
  return j.value();
}

uint64_t traversed(const AppOutput&, const Graph& g) { return g.num_edges(); }

}  // namespace

extern const AppSpec app_similarity;
const AppSpec app_similarity{
    .name = "similarity",
    .alias = "jaccard",
    .about =
        "similarity: the Jaccard (or overlap, Sorensen) coefficient of given pairs, of every edge, or each "
        "vertex's --top_k most similar; undirected graphs",
    .python_name = "similarity",
    .python_doc =
        "Jaccard coefficients (similarity=\"overlap\" or \"sorensen\" for the others) of the `pairs` given (a "
        "list of (u, v)), of every edge (pairs=None), or of each vertex's top_k most similar (with similar_to= a "
        "list of vertices); Result.pairs holds the pairs, Result.values their coefficients (float64).",
    .networkx = "jaccard_coefficient",
    .whole_graph = true,
    .values = Values::kReals,
    .per_pair = true,
    .takes_pairs = true,
    .python_double = true,
    .check = check,
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_similarity_gpu),
    .validate = validate,
    .traversed_edges = traversed,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
