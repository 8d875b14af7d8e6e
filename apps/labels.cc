#include "apps/labels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "apps/json.h"

namespace chatty {

Validation check_least_labels(const AppOutput& out, const char* what) {
  const std::vector<uint32_t>& label = out.ints;
  const size_t n = label.size();
  const auto named = [&](uint32_t l) { return l < n ? std::to_string(out.id_of(l)) : show_value(l); };
  for (vid_t v = 0; v < n; ++v)
    if (label[v] > v || label[label[v]] != label[v])
      return fail_at(v, "label " + named(label[v]) + " is not the least id of its " + what, out.ids);
  return {true, ""};
}

void relabel_least_ids(AppOutput& out, const std::vector<vid_t>& old_of_new) {
  const auto relabel = [&](std::vector<uint32_t>& label) {
    const size_t n = label.size();
    std::vector<uint32_t> least(n, kInfinity);
    for (size_t v = 0; v < n; ++v)
      if (label[v] < n) least[label[v]] = std::min<uint32_t>(least[label[v]], old_of_new[v]);
    for (size_t v = 0; v < n; ++v)
      if (label[v] < n) label[v] = least[label[v]];
  };
  relabel(out.ints);
  for (std::vector<uint32_t>& level : out.levels) relabel(level);
}

namespace {

struct Components {
  uint64_t count = 0, largest = 0;
};

Components count_components(const std::vector<uint32_t>& label) {
  std::vector<uint64_t> size(label.size(), 0);
  for (uint32_t l : label)
    if (l < size.size()) ++size[l];
  Components c;
  for (uint64_t k : size)
    if (k) ++c.count, c.largest = std::max(c.largest, k);
  return c;
}

}  // namespace

std::string classes_text(const AppOutput& out, const char* one, const char* many) {
  const Components c = count_components(out.ints);
  char b[256];
  std::snprintf(b, sizeof b, "%lu %s, the largest %lu vertices (%.1f %%)", (unsigned long)c.count,
                c.count == 1 ? one : many, (unsigned long)c.largest,
                out.ints.empty() ? 0.0 : 100.0 * double(c.largest) / double(out.ints.size()));
  return b;
}

JsonValue classes_json(const AppOutput& out, const char* many) {
  const Components c = count_components(out.ints);
  JsonObject j;
  j.add(many, c.count).add("largest", c.largest);
  return j.value();
}

std::string modularity_text(const AppOutput& out) {
  std::string s = classes_text(out, "community", "communities");
  if (const double q = out.figure("modularity"); !std::isnan(q)) {
    char b[96];
    const double passes = out.figure("passes");
    std::snprintf(b, sizeof b, "; modularity %.6f after %g level%s", q, out.figure("levels"),
                  out.figure("levels") == 1 ? "" : "s");
    s += b;
    if (passes > 1) {  // Leiden's: the levels of every pass up to the best
      std::snprintf(b, sizeof b, " in %g passes", passes);
      s += b;
    }
  }
  return s;
}

JsonValue modularity_json(const AppOutput& out) {
  JsonValue j = classes_json(out, "communities");
  if (const double q = out.figure("modularity"); !std::isnan(q))
    j.set("modularity", q), j.set("levels", uint64_t(out.figure("levels")));
  if (const double passes = out.figure("passes"); !std::isnan(passes)) j.set("passes", uint64_t(passes));
  return j;
}

}  // namespace chatty
