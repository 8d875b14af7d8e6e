// Formats a graph's edges in parallel into per-thread text buffers, then
// writes them in order; used by the text writers.
#pragma once

#include <cstdio>
#include <string>

#include "runtime/graph/graph.h"

namespace chatty {

// line(u, v, w, buf) appends one line for edge (u,v,w) to buf, or nothing to
// skip it. `header` is written first.
template <typename LineFn>
void write_text_graph(const Graph& g, const std::string& path, const std::string& header, LineFn line);

// Edges as an undirected graph's writers list them: once per pair (u <= v).
inline eid_t edges_once(const Graph& g) {
  if (g.directed()) return g.num_edges();
  const Csr& c = g.out();
  eid_t entries = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : entries)
  for (vid_t u = 0; u < c.num_vertices(); ++u)
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) entries += c.targets[e] <= u;
  return entries;
}

// Appends the decimal form of x.
inline void append_uint(std::string& s, uint64_t x) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = char('0' + x % 10);
    x /= 10;
  } while (x);
  while (n) s.push_back(tmp[--n]);
}

}  // namespace chatty

#include "datasets/text_writer_impl.h"
