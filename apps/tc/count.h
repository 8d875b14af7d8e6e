// Triangle counting as GAP's `tc` counts: ordered, each triangle w < v < u
// once, found by intersecting u's and v's lists below v; on a graph
// relabelled by degree (hubs first) where that pays. Built from the host
// row operators: each device counts the rows of its range.
#pragma once

#include <atomic>
#include <vector>

#include "runtime/graph.h"
#include "runtime/host/row_operators.h"

namespace chatty::tc {

struct Counted {
  std::vector<uint64_t> per_vertex;  // triangles through each vertex
  std::vector<double> device_seconds;
  uint64_t edges = 0;  // list entries read
};

// Counts on g (sorted lists without repeats: an undirected graph, or its
// orientation, whose lists hold the lower neighbours only) over `ranges`.
inline Counted count(const Graph& g, const host::DeviceRanges& ranges) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  Counted out;
  out.per_vertex.assign(n, 0);
  std::atomic<uint64_t> edges{0};
  out.device_seconds = host::for_each_row(ranges, [&](int, vid_t u) {
    const vid_t* nu = c.targets.data() + c.offsets[u];
    const vid_t* nu_end = c.targets.data() + c.offsets[u + 1];
    uint64_t at_u = 0, read = 0;
    for (const vid_t* pv = nu; pv != nu_end && *pv < u; ++pv) {
      const vid_t v = *pv;
      const vid_t* nv = c.targets.data() + c.offsets[v];
      const vid_t* nv_end = c.targets.data() + c.offsets[v + 1];
      read += uint64_t(nv_end - nv);
      const uint64_t k = host::intersect_below(nu, nu_end, nv, nv_end, v, [&](vid_t w) {
        std::atomic_ref<uint64_t>(out.per_vertex[w]).fetch_add(1, std::memory_order_relaxed);
      });
      if (k) std::atomic_ref<uint64_t>(out.per_vertex[v]).fetch_add(k, std::memory_order_relaxed);
      at_u += k;
    }
    if (at_u) std::atomic_ref<uint64_t>(out.per_vertex[u]).fetch_add(at_u, std::memory_order_relaxed);
    if (read) edges.fetch_add(read, std::memory_order_relaxed);
  });
  out.edges = edges.load();
  return out;
}

// GAP's test: relabel when the graph is large enough and its degrees
// skewed (the mean well above the median of a sample).
bool worth_relabelling(const Graph& g);

// The graph's lists oriented by degree: vertex x (the x-th by descending
// degree, hubs first) lists the x' < x of its neighbours, ascending.
// Counting on it is counting on g relabelled by degree, from half the
// edges and no second full CSR. old_of_new[x] is x's vertex in g.
struct Oriented {
  Graph graph;
  std::vector<vid_t> old_of_new;
};
Oriented orient_by_degree(const Graph& g);

}  // namespace chatty::tc
