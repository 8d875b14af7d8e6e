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
// orientation, whose lists hold the lower neighbours only) over `ranges`:
// each triangle w < v < u once, at u, by marking u's lower neighbours and
// probing each lower neighbour v's list below v. A hit's count goes to a
// slot of u's list (no atomic per triangle); u, v and the slots reach the
// shared counts once per row and edge.
inline Counted count(const Graph& g, const host::DeviceRanges& ranges) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  Counted out;
  out.per_vertex.assign(n, 0);
  std::atomic<uint64_t> edges{0};
  auto add = [&](vid_t v, uint64_t k) {
    if (k) std::atomic_ref<uint64_t>(out.per_vertex[v]).fetch_add(k, std::memory_order_relaxed);
  };
  out.device_seconds = host::for_each_row(ranges, [&](int, vid_t u) {
    thread_local host::MarkedList marked;
    thread_local std::vector<uint32_t> at_slot;
    const vid_t* nu = c.targets.data() + c.offsets[u];
    const vid_t* lower_end = nu;
    while (lower_end != c.targets.data() + c.offsets[u + 1] && *lower_end < u) ++lower_end;
    const size_t len = size_t(lower_end - nu);
    if (len < 2) return;
    marked.mark(nu, len, n);
    at_slot.assign(len, 0);
    uint64_t at_u = 0, read = 0;
    for (const vid_t* pv = nu + 1; pv != lower_end; ++pv) {
      const vid_t v = *pv;
      uint64_t k = 0;
      eid_t e = c.offsets[v];
      for (; e < c.offsets[v + 1] && c.targets[e] < v; ++e) {
        const vid_t w = c.targets[e];
        if (marked.has(w)) ++k, ++at_slot[marked.position(w)];
      }
      read += e - c.offsets[v];
      add(v, k);
      at_u += k;
    }
    marked.clear();
    add(u, at_u);
    for (size_t i = 0; i < len; ++i) add(nu[i], at_slot[i]);
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
