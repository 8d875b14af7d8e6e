#include "apps/summary.h"

#include <algorithm>

namespace chatty {

ResultSummary summarize(const AppOutput& out) {
  ResultSummary s;
  switch (out.app) {
    case App::kBfs:
    case App::kSssp:
      s.vertices = out.ints.size();
      for (uint32_t x : out.ints)
        if (x != kInfinity) ++s.reached, s.max_value = std::max(s.max_value, x);
      break;
    case App::kWcc: {
      // Labels are component minima: count them and the largest class.
      s.vertices = out.ints.size();
      std::vector<uint64_t> size(out.ints.size(), 0);
      for (uint32_t label : out.ints)
        if (label < size.size()) ++size[label];
      for (uint64_t k : size)
        if (k) ++s.components, s.largest = std::max(s.largest, k);
      break;
    }
    case App::kPageRank: {
      s.vertices = out.ranks.size();
      std::vector<vid_t> ids(out.ranks.size());
      for (size_t v = 0; v < ids.size(); ++v) ids[v] = vid_t(v);
      const size_t k = std::min<size_t>(5, ids.size());
      std::partial_sort(ids.begin(), ids.begin() + std::ptrdiff_t(k), ids.end(), [&](vid_t a, vid_t b) {
        return out.ranks[a] != out.ranks[b] ? out.ranks[a] > out.ranks[b] : a < b;
      });
      for (size_t i = 0; i < k; ++i) s.top.push_back({ids[i], out.ranks[ids[i]]});
      break;
    }
  }
  return s;
}

}  // namespace chatty
