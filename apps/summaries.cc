#include "apps/summaries.h"

#include <algorithm>
#include <cstdio>

#include "apps/json.h"

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
