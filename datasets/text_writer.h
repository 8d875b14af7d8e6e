// Formats a graph's edges in parallel into per-thread text buffers, then
// writes them in order; used by the text writers.
#pragma once

#include <cstdio>
#include <string>

#include "runtime/graph.h"

namespace chatty {

// line(u, v, w, buf) appends one line for edge (u,v,w) to buf, or nothing to
// skip it. `header` is written first.
template <typename LineFn>
void write_text_graph(const Graph& g, const std::string& path, const std::string& header, LineFn line);

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
