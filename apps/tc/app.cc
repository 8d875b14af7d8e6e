// Triangle counting (GAP's `tc`): the triangles through every vertex of an
// undirected graph, and their total.
#include "apps/tc/app.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <random>

#include "apps/json.h"
#include "apps/registry.h"
#include "apps/tc/count.h"
#include "apps/tc/orient.h"
#include "apps/tc/reference.h"
#include "apps/work_share.h"
#include "runtime/base/parallel.h"
#include "runtime/base/status.h"

namespace chatty {

namespace tc {

bool worth_relabelling(const Graph& g) {
  const vid_t n = g.num_vertices();
  const double mean = double(g.num_edges()) / double(std::max<vid_t>(n, 1));
  if (n == 0 || mean < 10) return false;  // small lists: intersections are cheap either way
  std::mt19937_64 rng(1);
  std::vector<eid_t> sample(std::min<size_t>(1000, n));
  for (eid_t& d : sample) d = g.out_degree(vid_t(rng() % n));
  std::nth_element(sample.begin(), sample.begin() + long(sample.size() / 2), sample.end());
  return mean > 1.3 * double(sample[sample.size() / 2]);
}

Oriented orient(const Graph& g, bool by_degree, InputPages pages) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  Oriented o;
  std::vector<vid_t> new_of_old;
  if (by_degree) {
    // Descending degree, stable: a counting sort (degrees are few and small).
    eid_t top = 0;
    for (vid_t v = 0; v < n; ++v) top = std::max(top, c.degree(v));
    std::vector<vid_t> start(size_t(top) + 2, 0);
    for (vid_t v = 0; v < n; ++v) ++start[size_t(top - c.degree(v)) + 1];
    for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
    o.old_of_new.resize(n);
    for (vid_t v = 0; v < n; ++v) o.old_of_new[start[size_t(top - c.degree(v))]++] = v;
    new_of_old.resize(n);
#pragma omp parallel for schedule(static)
    for (vid_t x = 0; x < n; ++x) new_of_old[o.old_of_new[x]] = x;
  }
  auto new_of = [&](vid_t v) { return by_degree ? new_of_old[v] : v; };
  // Two passes over the input in its own order, in blocks of rows. With
  // kDrop the second lets a mapped input's pages go once a block is read;
  // the first keeps them, since the second comes back to them at once.
  // Blocks of up to 4096 rows, and at least 8 a thread: a small graph
  // (ego-Facebook's 4039 rows) in one block was oriented by one thread.
  const vid_t block = std::clamp<vid_t>(n / vid_t(8 * omp_get_max_threads()), 64, 4096);
  const vid_t blocks = n / block + (n % block != 0);  // n + block - 1 would wrap near 2^32
  auto over_input = [&](bool release, auto&& row) {
#pragma omp parallel for schedule(dynamic, 1)
    for (vid_t b = 0; b < blocks; ++b) {
      const vid_t end = b * block + std::min<vid_t>(block, n - b * block);
      for (vid_t v = b * block; v < end; ++v) row(v, new_of(v));
      if (release) c.targets.release_resident(c.offsets[b * block], c.offsets[end]);
    }
  };
  Csr lower;
  lower.offsets = Buffer<eid_t>(size_t(n) + 1);
  eid_t* off = lower.offsets.mutable_data();
  over_input(false, [&](vid_t v, vid_t x) {
    eid_t k = 0;
    for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) k += new_of(c.targets[e]) < x;
    off[x] = k;
  });
  parallel_exclusive_scan(off, off, size_t(n));
  lower.targets = Buffer<vid_t>(off[n]);
  vid_t* t = lower.targets.mutable_data();
  over_input(pages == InputPages::kDrop, [&](vid_t v, vid_t x) {
    eid_t k = off[x];
    for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e)
      if (const vid_t y = new_of(c.targets[e]); y < x) t[k++] = y;
    if (by_degree) std::sort(t + off[x], t + off[x + 1]);  // g's lists are sorted: so are their prefixes
  });
  o.graph = Graph(std::move(lower), true);
  return o;
}

}  // namespace tc

namespace {

void check(const Graph& g, const EngineOptions&) {
  CHATTY_CHECK(!g.directed(), "tc counts the triangles of an undirected graph (use --symmetrize)");
  // A repeated list entry (a parallel edge kept by --dedupe=false) would
  // count its triangles twice.
  const Csr& c = g.out();
  std::atomic<vid_t> repeated{kInfinity};
#pragma omp parallel for schedule(dynamic, 4096)
  for (vid_t v = 0; v < c.num_vertices(); ++v)
    for (eid_t e = c.offsets[v] + 1; e < c.offsets[v + 1]; ++e)
      if (c.targets[e] == c.targets[e - 1]) repeated.store(v, std::memory_order_relaxed);
  CHATTY_CHECK(repeated.load() == kInfinity,
               "tc: vertex " + std::to_string(repeated.load()) +
                   " has a parallel edge, whose triangles would count twice (load with --dedupe)");
}

void run_host(const AppRun& r, AppOutput& out) {
  const Graph* g = &r.g;
  tc::Oriented relabelled;
  const bool relabel = tc::worth_relabelling(r.g);
  if (relabel) {  // inside the timed run, as GAP times its relabelling
    relabelled = tc::orient(r.g, true, tc::InputPages::kDrop);
    g = &relabelled.graph;
  }
  // Ranks each count the rows of their devices' ranges.
  const WorkShare share = work_share(r);
  const host::DeviceRanges all =
      host::balanced_ranges(g->num_vertices(), share.devices, [&](vid_t v) { return g->out_degree(v) + 1; });
  const host::DeviceRanges ranges(all.begin() + share.first, all.begin() + share.first + share.local + 1);
  const tc::Counted c = tc::count(*g, ranges, relabel ? relabelled.old_of_new.data() : nullptr, out.counts.data());
  sum_over_ranks(out.counts, share);
  host::record_compute(out.multi, c.device_seconds, c.edges);
  note_share(out.multi, share);
}

uint64_t total(const std::vector<uint64_t>& per_vertex) {
  uint64_t s = 0;
  for (uint64_t t : per_vertex) s += t;
  return s / 3;
}

Validation validate(const AppOutput& out, const Graph& g, vid_t, const EngineOptions&) {
  uint64_t sum = 0;
  for (uint64_t t : out.counts) sum += t;
  if (sum % 3) return {false, "FAIL: the per-vertex counts add to " + std::to_string(sum) + ", not a multiple of 3"};
  const std::vector<uint64_t> want = reference::triangles(g);
  if (want.size() != out.counts.size())
    return {false,
            "FAIL: " + std::to_string(out.counts.size()) + " counts for " + std::to_string(want.size()) + " vertices"};
  for (size_t v = 0; v < want.size(); ++v)
    if (want[v] != out.counts[v])
      return {false, "FAIL: vertex " + std::to_string(out.ids ? out.ids->of(vid_t(v)) : v) + " is in " +
                         std::to_string(out.counts[v]) + " triangles, the reference finds " + std::to_string(want[v])};
  return {true, "PASS (" + std::to_string(sum / 3) + " triangles; the triangles of all " + std::to_string(want.size()) +
                    " vertices match the reference)"};
}

struct Largest {
  uint64_t vertex = 0, count = 0;
};

Largest largest(const AppOutput& out) {
  Largest l;
  for (size_t v = 0; v < out.counts.size(); ++v)
    if (out.counts[v] > l.count) l = {out.id_of(vid_t(v)), out.counts[v]};
  return l;
}

std::string text(const AppOutput& out) {
  const Largest l = largest(out);
  char b[160];
  std::snprintf(b, sizeof b, "%llu triangles; the most through one vertex: %llu (vertex %llu)",
                static_cast<unsigned long long>(total(out.counts)), static_cast<unsigned long long>(l.count),
                static_cast<unsigned long long>(l.vertex));
  return b;
}

JsonValue json(const AppOutput& out) {
  const Largest l = largest(out);
  JsonObject j;
  j.add("triangles", total(out.counts)).add("largest_vertex", l.vertex).add("largest_count", l.count);
  return j.value();
}

uint64_t traversed(const AppOutput&, const Graph& g) { return g.num_edges(); }

}  // namespace

extern const AppSpec app_tc;
const AppSpec app_tc{
    .name = "tc",
    .alias = "triangles",
    .about = "triangle counting: the triangles through every vertex (GAP's tc, ordered); undirected graphs",
    .python_name = "triangles",
    .python_doc =
        "Triangles through every vertex of an undirected graph (uint64, as NetworkX's `triangles`); "
        "stats[\"summary\"][\"triangles\"] is the total.",
    .networkx = "triangles",
    .whole_graph = true,
    .values = Values::kCounts,
    .check = check,
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_tc_gpu),
    .validate = validate,
    .traversed_edges = traversed,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
