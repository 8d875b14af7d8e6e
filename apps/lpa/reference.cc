#include "apps/lpa/reference.h"

#include <algorithm>
#include <map>
#include <set>

namespace chatty::reference {

namespace {

std::set<uint32_t> most_frequent(const Csr& c, const std::vector<uint32_t>& label, vid_t v) {
  std::map<uint32_t, uint64_t> freq;
  for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) ++freq[label[c.targets[e]]];
  uint64_t top = 0;
  for (const auto& [l, f] : freq) top = std::max(top, f);
  std::set<uint32_t> best;
  for (const auto& [l, f] : freq)
    if (f == top) best.insert(l);
  return best;
}

}  // namespace

std::vector<uint32_t> label_propagation(const Graph& g) {
  const Csr& c = g.out();
  const vid_t n = c.num_vertices();
  std::vector<std::pair<uint64_t, vid_t>> by_degree;  // (-degree, id): a stable sort by degree, descending
  for (vid_t v = 0; v < n; ++v) {
    uint64_t d = 0;
    for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) d += c.targets[e] == v ? 2 : 1;
    by_degree.push_back({~d, v});
  }
  std::sort(by_degree.begin(), by_degree.end());
  std::map<vid_t, uint32_t> colour;
  std::map<uint32_t, std::vector<vid_t>> classes;
  for (const auto& [_, u] : by_degree) {
    std::set<uint32_t> used;
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
      if (auto it = colour.find(c.targets[e]); it != colour.end()) used.insert(it->second);
    uint32_t k = 0;
    while (used.count(k)) ++k;
    colour[u] = k;
    classes[k].push_back(u);
  }
  std::vector<uint32_t> label(n);
  for (vid_t v = 0; v < n; ++v) label[v] = v;
  const auto complete = [&] {
    for (vid_t v = 0; v < n; ++v)
      if (c.degree(v) > 0 && !most_frequent(c, label, v).count(label[v])) return false;
    return true;
  };
  while (!complete())
    for (const auto& [_, members] : classes)
      for (vid_t v : members) {
        const std::set<uint32_t> best = most_frequent(c, label, v);
        if (best.size() == 1)
          label[v] = *best.begin();
        else if (best.size() > 1 && !best.count(label[v]))
          label[v] = *best.rbegin();
      }
  return label;
}

}  // namespace chatty::reference
