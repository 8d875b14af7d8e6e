#include "apps/summaries.h"

#include <algorithm>
#include <cstdio>

#include "apps/json.h"
#include "apps/registry.h"

namespace chatty {

namespace {

struct Reached {
  uint64_t count = 0;
  uint32_t max = 0;
};

Reached reached(const std::vector<uint32_t>& values) {
  Reached r;
  for (uint32_t x : values)
    if (x != kInfinity) ++r.count, r.max = std::max(r.max, x);
  return r;
}

}  // namespace

std::string reached_text(const std::vector<uint32_t>& values, const char* what) {
  const Reached r = reached(values);
  const double pct = values.empty() ? 0 : 100.0 * double(r.count) / double(values.size());
  char b[256];
  std::snprintf(b, sizeof b, "reached %lu of %lu vertices (%.1f %%), max %s %u", (unsigned long)r.count,
                (unsigned long)values.size(), pct, what, r.max);
  return b;
}

JsonValue reached_json(const std::vector<uint32_t>& values, const char* what) {
  const Reached r = reached(values);
  JsonObject j;
  j.add("reached", r.count).add(std::string("max_") + what, r.max);
  return j.value();
}

uint64_t reached_out_edges(const std::vector<uint32_t>& values, const Graph& g) {
  return out_edges_of_set(g, values, kInfinity);
}

}  // namespace chatty

namespace chatty {

namespace {

std::vector<vid_t> top_five(const std::vector<float>& values) {
  std::vector<vid_t> ids(values.size());
  for (size_t v = 0; v < ids.size(); ++v) ids[v] = vid_t(v);
  const size_t k = std::min<size_t>(5, ids.size());
  std::partial_sort(ids.begin(), ids.begin() + std::ptrdiff_t(k), ids.end(),
                    [&](vid_t a, vid_t b) { return values[a] != values[b] ? values[a] > values[b] : a < b; });
  ids.resize(k);
  return ids;
}

}  // namespace

uint64_t examined_edges(const AppOutput& out, const Graph&) { return out.multi.edges(); }

uint64_t gathered_edges(const AppOutput& out, const Graph& g) {
  return g.num_edges() * uint64_t(out.multi.steps.size());
}

std::string top_values_text(const AppOutput& out, const std::vector<float>& values, const char* what) {
  std::string t = std::string("top ") + what + ":";
  char b[64];
  for (vid_t v : top_five(values)) {
    std::snprintf(b, sizeof b, " %llu (%.6g)", static_cast<unsigned long long>(out.id_of(v)), double(values[v]));
    t += b;
  }
  return t;
}

JsonValue top_values_list(const AppOutput& out, const std::vector<float>& values, const char* what) {
  JsonValue list = JsonValue::array();
  for (vid_t v : top_five(values)) list.push(JsonObject().add("vertex", out.id_of(v)).add(what, values[v]).value());
  return list;
}

std::string top_values_text(const AppOutput& out, const char* what) {
  return top_values_text(out, out.ranks, (std::string(what) + "s").c_str());
}

JsonValue top_values_json(const AppOutput& out, const char* what) {
  return JsonObject().add("top", top_values_list(out, out.ranks, what)).value();
}

}  // namespace chatty
