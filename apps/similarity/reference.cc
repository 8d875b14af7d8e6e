#include "apps/similarity/reference.h"

#include <algorithm>
#include <iterator>
#include <set>

namespace chatty::reference {
namespace {

std::vector<vid_t> neighbours(const Graph& g, vid_t v) {
  const Csr& c = g.out();
  return {c.targets.begin() + std::ptrdiff_t(c.offsets[v]), c.targets.begin() + std::ptrdiff_t(c.offsets[v + 1])};
}

}  // namespace

double similarity(const Graph& g, Similarity m, vid_t u, vid_t v) {
  const std::vector<vid_t> a = neighbours(g, u), b = neighbours(g, v);
  std::vector<vid_t> both, either;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(either));
  const double common = double(both.size());
  switch (m) {
    case Similarity::kOverlap: {
      const size_t least = std::min(a.size(), b.size());
      return least == 0 ? 0.0 : common / double(least);
    }
    case Similarity::kSorensen: return a.empty() && b.empty() ? 0.0 : 2 * common / double(a.size() + b.size());
    default: return either.empty() ? 0.0 : common / double(either.size());
  }
}

std::vector<std::pair<double, vid_t>> most_similar(const Graph& g, Similarity m, vid_t s) {
  std::set<vid_t> two_hops;
  for (vid_t v : neighbours(g, s))
    for (vid_t w : neighbours(g, v))
      if (w != s) two_hops.insert(w);
  std::vector<std::pair<double, vid_t>> out;
  for (vid_t w : two_hops) out.emplace_back(similarity(g, m, s, w), w);
  std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  return out;
}

}  // namespace chatty::reference
