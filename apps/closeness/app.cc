// Distance measures of every vertex: closeness centrality (NetworkX's,
// Wasserman and Faust's scaling for graphs in pieces), harmonic centrality
// or eccentricity (--distance_measure), from a walk of every vertex.
#include "apps/closeness/app.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>

#include "apps/closeness/batch.h"
#include "apps/closeness/program.h"
#include "apps/closeness/reference.h"
#include "apps/closeness/walk.h"
#include "apps/host_run.h"
#include "apps/summaries.h"
#include "runtime/host/operators.h"

namespace chatty {

double measure_of(DistanceMeasure m, const Walk& w, vid_t n) {
  switch (m) {
    case DistanceMeasure::kCloseness: {
      if (w.distance_sum == 0 || n < 2) return 0;
      const double others = double(w.reached - 1);
      return others / double(w.distance_sum) * (others / double(n - 1));
    }
    case DistanceMeasure::kHarmonic: return w.inverse_sum;
    case DistanceMeasure::kEccentricity:
      return w.reached < n ? std::numeric_limits<double>::infinity() : double(w.farthest);
  }
  return 0;
}

void add_level(std::span<Walk> walks, const uint64_t* counts, uint32_t depth) {
  for (size_t j = 0; j < walks.size(); ++j) {
    if (!counts[j]) continue;
    Walk& w = walks[j];
    w.reached += counts[j], w.distance_sum += counts[j] * depth, w.inverse_sum += double(counts[j]) / depth;
    w.farthest = depth;
  }
}

namespace {

// Walks a batch at a time (batch.h), each level a step of the team.
void batched_walks(host::HostOperators& h, const Csr& r, DistanceMeasure measure, const std::vector<vid_t>& mine,
                   std::vector<double>& value) {
  const vid_t n = r.num_vertices();
  std::vector<uint64_t> seen(n), front(n), next(n);
  std::array<std::atomic<uint64_t>, closeness::kBatch> counts{};
  std::array<Walk, closeness::kBatch> walks;
  h.team([&](host::TeamThread& t) {
    thread_local std::array<uint64_t, closeness::kBatch> mine_counts;
    for (size_t b0 = 0; b0 < mine.size() && !t.interrupted(); b0 += closeness::kBatch) {
      const size_t k = std::min<size_t>(closeness::kBatch, mine.size() - b0);
      const uint64_t batch = k == 64 ? ~uint64_t(0) : (uint64_t(1) << k) - 1;
      host::compute(t, 0, n, closeness::Unseen{seen.data(), front.data()});
      t.single([&] {
        for (size_t j = 0; j < k; ++j) {
          seen[mine[b0 + j]] |= uint64_t(1) << j, front[mine[b0 + j]] |= uint64_t(1) << j;
          walks[j] = Walk{1, 0, 0, 0};
        }
      });
      for (uint32_t depth = 1;; ++depth) {
        mine_counts.fill(0);
        const closeness::Level level{r.offsets.data(), r.targets.data(), front.data(), seen.data(), next.data(), batch};
        host::compute(t, 0, n, [&](int, size_t w) -> uint64_t {
          for (uint64_t fresh = level(w); fresh; fresh &= fresh - 1) ++mine_counts[size_t(__builtin_ctzll(fresh))];
          return 1 + r.offsets[w + 1] - r.offsets[w];
        });
        for (size_t j = 0; j < k; ++j)
          if (mine_counts[j]) counts[j].fetch_add(mine_counts[j], std::memory_order_relaxed);
        t.barrier();
        uint64_t level_counts[closeness::kBatch];
        uint64_t found = 0;
        for (size_t j = 0; j < k; ++j) found += level_counts[j] = counts[j].load(std::memory_order_relaxed);
        t.barrier();  // every thread has read the counts before the lead clears them
        t.single([&] {
          add_level(std::span<Walk>(walks.data(), k), level_counts, depth);
          for (auto& x : counts) x.store(0, std::memory_order_relaxed);
          std::swap(front, next);
        });
        if (!found) break;
      }
      t.single([&] {
        for (size_t j = 0; j < k; ++j) value[mine[b0 + j]] = measure_of(measure, walks[j], n);
      });
    }
  });
}

// A walk a thread at a time (walk.h).
void single_walks(host::HostOperators& h, const Csr& c, DistanceMeasure measure, const std::vector<vid_t>& mine,
                  std::vector<double>& value) {
  const vid_t n = c.num_vertices();
  const int threads =
      int(std::min<size_t>(size_t(std::max(1, omp_get_max_threads())), std::max<size_t>(1, mine.size())));
  h.team([&](host::TeamThread& t) {
    host::each_item_alone(
        t, mine.size(), threads, [&] { return closeness::Walker(n); },
        [&](closeness::Walker& walker, size_t i) {
          uint64_t edges = 0;
          value[mine[i]] = measure_of(measure, walker.run(c, mine[i], edges), n);  // a vertex is one item's
          return edges;
        },
        [](closeness::Walker&) {});
  });
}

}  // namespace

// A batch's level reads every vertex's word, so a graph of many levels (a
// grid's hundreds) walks a vertex at a time: the levels of one walk from
// the vertex of most edges decide (grid:100x100: 8x the time batched,
// kron:14: a sixth).
std::vector<double> ClosenessProgram::on_host(const Graph& g, host::HostOperators& h) const {
  const Csr& c = walk_csr(g, measure);
  const vid_t n = c.num_vertices();
  const std::vector<vid_t> mine = walk_starts(h.share(), n);
  std::vector<double> value(n, 0.0);
  if (n == 0) return value;
  vid_t hub = 0;
  for (vid_t v = 1; v < n; ++v)
    if (c.degree(v) > c.degree(hub)) hub = v;
  uint64_t edges = 0;
  const uint64_t levels = uint64_t(closeness::Walker(n).run(c, hub, edges).farthest) + 1;
  if (levels * n < 8 * uint64_t(c.num_edges())) {
    batched_walks(h, reverse_csr(g, measure), measure, mine, value);
    h.note("64 walks a pass over the edges (multi-source BFS), from every vertex");
  } else {
    single_walks(h, c, measure, mine, value);
    h.note("a walk a thread, from every vertex (" + std::to_string(levels) + " levels: too many to batch)");
  }
  return value;
}

namespace {

void run_host(const AppRun& r, AppOutput& out) {
  const std::vector<double> v = run_on_host(r, ClosenessProgram{r.opt.distance_measure}, out);
  out.ranks.assign(v.begin(), v.end());
}

Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions& opt) {
  const std::vector<double> want = reference::distance_measure(g, opt.distance_measure);
  if (want.size() != out.ranks.size()) return fail_at(out.ranks.size(), "past the last vertex of the reference");
  double worst = 0;
  size_t at = 0;
  for (size_t v = 0; v < want.size(); ++v) {
    const double got = out.ranks[v];
    if (std::isinf(want[v]) || std::isinf(got)) {
      if (got != want[v])
        return fail_at(v, std::to_string(got) + " where the reference has " + std::to_string(want[v]), out.ids);
      continue;
    }
    const double err = std::abs(got - want[v]) / std::max(1e-30, std::abs(want[v]));
    if (err > worst) worst = err, at = v;
  }
  char b[160];
  std::snprintf(b, sizeof b, "relative error %.2g at vertex %llu (%.9g against the reference's %.9g)", worst,
                static_cast<unsigned long long>(out.id_of(vid_t(at))), double(out.ranks[at]), want[at]);
  if (worst > 1e-6) return {false, std::string("FAIL: ") + b};  // 4-byte floats of values taken in double
  return {true, std::string("PASS (every vertex's measure matches the reference's; worst ") + b + ")"};
}

std::string text(const AppOutput& out) { return top_values_text(out, "value"); }
JsonValue json(const AppOutput& out) { return top_values_json(out, "value"); }
}  // namespace

extern const AppSpec app_closeness;
const AppSpec app_closeness{
    .name = "closeness",
    .about =
        "closeness centrality (NetworkX's), harmonic centrality or eccentricity (--distance_measure) of every "
        "vertex, from a walk of each",
    .python_name = "closeness",
    .python_doc =
        "Distance measures of every vertex from a breadth-first walk of each: distance_measure=\"closeness\" "
        "(NetworkX's closeness_centrality: distances to the vertex, scaled by the share of vertices "
        "reaching it), \"harmonic\" (harmonic_centrality: the sum of 1/distance to it) or \"eccentricity\" "
        "(the largest distance from it; inf where some vertex is out of reach).",
    .networkx =
        "closeness_centrality harmonic_centrality eccentricity diameter radius center periphery "
        "average_shortest_path_length wiener_index barycenter",
    .needs_in_edges = true,
    .whole_graph = true,
    .values = Values::kReals,
    .python_double = true,
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_closeness_gpu),
    .validate = validate,
    .traversed_edges = examined_edges,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
