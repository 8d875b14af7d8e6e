// Truss numbers (cuGraph's k_truss, NetworkX's k_truss): every edge of an
// undirected graph with the largest k whose k-truss holds it. --output
// writes "u v truss"; the k-truss is the edges of truss number k or more.
#include "apps/ktruss/app.h"

#include <cstdio>
#include <vector>

#include "apps/host_run.h"
#include "apps/json.h"
#include "apps/ktruss/peel.h"
#include "apps/ktruss/program.h"
#include "apps/ktruss/reference.h"
#include "runtime/base/status.h"
#include "runtime/graph/orient.h"

namespace chatty {

std::vector<uint64_t> KtrussProgram::on_host(const Graph& g, host::HostOperators& h) const {
  if (h.share().rank != 0) {
    h.note("rank 0 computes the truss numbers");
    return std::vector<uint64_t>(upper_edges(g.out()).count(), 0);
  }
  return ktruss::truss_numbers(h, g);
}

namespace {

void check(const Graph& g, const EngineOptions&) {
  CHATTY_CHECK(!g.directed(), "ktruss finds the trusses of an undirected graph (use --symmetrize)");
  require_no_parallel_edges(g, "ktruss", "whose triangles would count twice");
  const Csr& c = g.out();
  for (vid_t u = 0; u < c.num_vertices(); ++u)
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
      CHATTY_CHECK(c.targets[e] != u, "ktruss: vertex " + std::to_string(u) +
                                          " has a self-loop, which no truss is defined with (load with "
                                          "--drop_self_loops)");
  CHATTY_CHECK(g.num_edges() / 2 < kInfinity, "ktruss numbers edges in 32 bits: the graph has too many");
}

void run_host(const AppRun& r, AppOutput& out) {
  const std::vector<uint64_t> truss = run_on_host(r, KtrussProgram{}, out);
  out.pairs = upper_pairs(r.g.out(), upper_edges(r.g.out()));
  out.ints.assign(truss.begin(), truss.end());
}

// Every edge once, each with the reference's truss number.
Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions&) {
  const auto want = reference::truss_numbers(g);
  if (out.pairs.size() != want.size() || out.ints.size() != out.pairs.size())
    return {false, "FAIL: " + std::to_string(out.ints.size()) + " truss numbers for " + std::to_string(want.size()) +
                       " edges"};
  for (size_t i = 0; i < out.pairs.size(); ++i) {
    auto [u, v] = out.pairs[i];
    if (u > v) std::swap(u, v);
    const auto it = want.find({u, v});
    std::string pair = "(";
    pair.append(std::to_string(out.id_of(u))).append(", ").append(std::to_string(out.id_of(v))).append(")");
    if (it == want.end()) return {false, "FAIL: " + pair + " is not an edge"};
    if (it->second != out.ints[i]) {
      std::string why = "FAIL: edge ";
      why.append(pair).append(" has truss number ").append(std::to_string(out.ints[i]));
      return {false, why.append(", the reference's ").append(std::to_string(it->second))};
    }
  }
  return {true, "PASS (the truss numbers of all " + std::to_string(want.size()) + " edges match the reference)"};
}

struct Top {
  uint32_t k = 0;
  uint64_t edges = 0;
};

Top top(const AppOutput& out) {
  Top t;
  for (uint32_t k : out.ints)
    if (k > t.k) {
      t = {k, 1};
    } else if (k == t.k) {
      ++t.edges;
    }
  return t;
}

std::string text(const AppOutput& out) {
  const Top t = top(out);
  char line[160];
  std::snprintf(line, sizeof line, "%zu edges; the largest truss: k = %u, %llu edges", out.ints.size(), t.k,
                static_cast<unsigned long long>(t.edges));
  return line;
}

JsonValue json(const AppOutput& out) {
  const Top t = top(out);
  JsonObject j;
  j.add("edges", uint64_t(out.ints.size())).add("max_truss", uint64_t(t.k)).add("max_truss_edges", t.edges);
  return j.value();
}

uint64_t traversed(const AppOutput&, const Graph& g) { return g.num_edges(); }

}  // namespace

extern const AppSpec app_ktruss;
const AppSpec app_ktruss{
    .name = "ktruss",
    .alias = "truss",
    .about = "truss decomposition: every edge's truss number (the largest k whose k-truss holds it); undirected graphs",
    .python_name = "truss_numbers",
    .python_doc =
        "Every edge's truss number (Result.pairs the edges, Result.values their numbers): the k-truss is "
        "the edges numbered k or more, NetworkX's k_truss(G, k) (self-loops refused).",
    .networkx = "k_truss",
    .whole_graph = true,
    .values = Values::kInts,
    .per_pair = true,
    .check = check,
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_ktruss_gpu),
    .validate = validate,
    .traversed_edges = traversed,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
