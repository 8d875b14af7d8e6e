#include "runtime/graph/orient.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <random>

#include "runtime/base/interrupt.h"
#include "runtime/base/parallel.h"
#include "runtime/base/status.h"

namespace chatty {

bool skewed_degrees(const Graph& g) {
  const vid_t n = g.num_vertices();
  const double mean = double(g.num_edges()) / double(std::max<vid_t>(n, 1));
  if (n == 0 || mean < 10) return false;  // small lists: intersections are cheap either way
  std::mt19937_64 rng(1);
  std::vector<eid_t> sample(std::min<size_t>(1000, n));
  for (eid_t& d : sample) d = g.out_degree(vid_t(rng() % n));
  std::nth_element(sample.begin(), sample.begin() + long(sample.size() / 2), sample.end());
  return mean > 1.3 * double(sample[sample.size() / 2]);
}

Oriented orient_lower(const Graph& g, bool by_degree, InputPages pages) {
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
  // A stop request skips the blocks left (kron:19's passes took 0.4 s
  // before the count could see one); the pass then throws.
  const vid_t block = std::clamp<vid_t>(n / vid_t(8 * omp_get_max_threads()), 64, 4096);
  const vid_t blocks = n / block + (n % block != 0);  // n + block - 1 would wrap near 2^32
  auto over_input = [&](bool release, auto&& row) {
    const RunStopCarrier run;
#pragma omp parallel
    {
      const RunStop carried = run.carry();
#pragma omp for schedule(dynamic, 1)
      for (vid_t b = 0; b < blocks; ++b) {
        if (interrupt_requested()) continue;
        const vid_t end = b * block + std::min<vid_t>(block, n - b * block);
        for (vid_t v = b * block; v < end; ++v) row(v, new_of(v));
        if (release) c.targets.release_resident(c.offsets[b * block], c.offsets[end]);
      }
    }
    throw_if_interrupted();
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

vid_t first_repeated_neighbour(const Graph& g) {
  const Csr& c = g.out();
  std::atomic<vid_t> repeated{kInfinity};
#pragma omp parallel for schedule(dynamic, 4096)
  for (vid_t v = 0; v < c.num_vertices(); ++v)
    for (eid_t e = c.offsets[v] + 1; e < c.offsets[v + 1]; ++e)
      if (c.targets[e] == c.targets[e - 1]) repeated.store(v, std::memory_order_relaxed);
  return repeated.load();
}

void require_no_parallel_edges(const Graph& g, const char* app, const char* why) {
  const vid_t repeated = first_repeated_neighbour(g);
  if (repeated == kInfinity) return;
  std::string what = app;
  what.append(": vertex ").append(std::to_string(repeated)).append(" has a parallel edge, ").append(why);
  throw Error(what.append(" (load with --dedupe)"));
}

}  // namespace chatty
