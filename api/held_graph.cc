#include "api/held_graph.h"

#include <utility>

#include "runtime/base/status.h"

namespace chattygraph::detail {

Graph::Impl held_from_edges(chatty::EdgeList e, size_t n, bool directed, bool dedupe, bool drop_self_loops,
                            std::vector<uint64_t> ids, std::string name) {
  using namespace chatty;
  const size_t m = e.src.size();
  CHATTY_CHECK(e.dst.size() == m, "src and dst must have the same length");
  CHATTY_CHECK(e.weight.empty() || e.weight.size() == m, "weights must have one entry per edge");
  CHATTY_CHECK(n < (size_t(1) << 32) - 1, "at most 2^32 - 2 vertices");
  for (size_t i = 0; i < m; ++i)
    CHATTY_CHECK(e.src[i] < n && e.dst[i] < n, "edge " + std::to_string(i) + " (" + std::to_string(e.src[i]) + ", " +
                                                   std::to_string(e.dst[i]) +
                                                   ") names a vertex >= n = " + std::to_string(n));
  CHATTY_CHECK(ids.empty() || ids.size() == n, "ids must have one entry per vertex");
  Graph::Impl g;
  const bool weighted = !e.weight.empty();
  BuildOptions b;
  b.symmetrize = !directed, b.dedupe = dedupe, b.drop_self_loops = drop_self_loops;
  std::vector<EdgeList> lists;
  lists.push_back(std::move(e));
  g.g = build_graph(std::move(lists), vid_t(n), weighted, b);
  if (!ids.empty()) {
    g.info.ids.scheme = IdScheme::kOccurring;
    g.info.ids.original = std::move(ids);
  }
  g.info.format = "edges";
  g.info.direction_reason = directed ? "directed=True" : "directed=False";
  g.name = std::move(name);
  return g;
}

}  // namespace chattygraph::detail
