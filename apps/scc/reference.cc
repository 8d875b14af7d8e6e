#include "apps/scc/reference.h"

#include <algorithm>

namespace chatty::reference {

std::vector<uint32_t> scc(const Graph& g) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  constexpr uint32_t kUnseen = 0xFFFFFFFFu;
  std::vector<uint32_t> index(n, kUnseen), low(n), label(n, kUnseen);
  std::vector<vid_t> stack;  // Tarjan's stack of open vertices
  std::vector<bool> on_stack(n, false);
  struct Frame {
    vid_t v;
    eid_t next;  // the next out-edge to look at
  };
  std::vector<Frame> calls;
  uint32_t counter = 0;
  for (vid_t root = 0; root < n; ++root) {
    if (index[root] != kUnseen) continue;
    calls.push_back({root, c.offsets[root]});
    index[root] = low[root] = counter++;
    stack.push_back(root), on_stack[root] = true;
    while (!calls.empty()) {
      Frame& f = calls.back();
      const vid_t v = f.v;
      if (f.next < c.offsets[v + 1]) {
        const vid_t w = c.targets[f.next++];
        if (index[w] == kUnseen) {
          index[w] = low[w] = counter++;
          stack.push_back(w), on_stack[w] = true;
          calls.push_back({w, c.offsets[w]});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) low[calls.back().v] = std::min(low[calls.back().v], low[v]);
      if (low[v] != index[v]) continue;
      // v roots a component: it is the stack above and including v.
      auto first = std::find(stack.rbegin(), stack.rend(), v).base() - 1;
      const vid_t least = *std::min_element(first, stack.end());
      for (auto it = first; it != stack.end(); ++it) label[*it] = least, on_stack[*it] = false;
      stack.erase(first, stack.end());
    }
  }
  return label;
}

}  // namespace chatty::reference
