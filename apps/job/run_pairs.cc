#include "apps/job/run_pairs.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "apps/job/run_pipeline.h"
#include "runtime/base/status.h"

namespace chatty::job {
namespace {

// "3:17,4:9" (a trailing comma allowed).
std::vector<std::pair<uint64_t, uint64_t>> pair_list(const std::string& v) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  size_t at = 0;
  while (at < v.size()) {
    const size_t comma = std::min(v.find(',', at), v.size());
    const std::string item = v.substr(at, comma - at);
    const size_t colon = item.find(':');
    const std::optional<uint64_t> a = colon == std::string::npos ? std::nullopt : parse_id(item.substr(0, colon));
    const std::optional<uint64_t> b = colon == std::string::npos ? std::nullopt : parse_id(item.substr(colon + 1));
    CHATTY_CHECK(a && b, "--pairs: '" + item + "' is not a pair of vertex ids as u:v (a list is 3:17,4:9; or a file)");
    out.emplace_back(*a, *b);
    at = comma + 1;
  }
  CHATTY_CHECK(!out.empty(), "--pairs: no pairs given");
  return out;
}

// Two ids a line, blank lines and lines opening with # or % skipped.
std::vector<std::pair<uint64_t, uint64_t>> pair_file(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "r");
  CHATTY_CHECK(f, "--pairs=" + path + ": cannot read: " + std::strerror(errno));
  std::vector<std::pair<uint64_t, uint64_t>> out;
  char line[512];
  size_t number = 0;
  std::string bad;
  while (bad.empty() && std::fgets(line, sizeof line, f)) {
    ++number;
    const char* p = line;
    while (*p == ' ' || *p == '\t') ++p;
    if (*p == '\n' || *p == '\r' || *p == '\0' || *p == '#' || *p == '%') continue;
    unsigned long long a = 0, b = 0;
    char rest[2];
    if (std::sscanf(p, "%llu %llu %1s", &a, &b, rest) != 2 || std::strchr(p, '-'))
      bad = path + ":" + std::to_string(number) + ": not a pair of vertex ids (two whole numbers a line)";
    else
      out.emplace_back(a, b);
  }
  std::fclose(f);
  CHATTY_CHECK(bad.empty(), "--pairs=" + bad);
  CHATTY_CHECK(!out.empty(), "--pairs=" + path + ": the file has no pairs");
  return out;
}

bool looks_like_list(const std::string& v) {
  return v.find(':') != std::string::npos && v.find_first_not_of("0123456789:, ") == std::string::npos;
}

}  // namespace

PairRequest parse_pair_request(const RunOptions& f, App app) {
  PairRequest r;
  const bool pairs = f.was_given("pairs"), top = f.was_given("top_k"), of = f.was_given("similar_to");
  const bool takes = app_spec(app).takes_pairs;
  for (const char* flag : {"pairs", "top_k", "similar_to"})
    CHATTY_CHECK(takes || !f.was_given(flag),
                 "--" + std::string(flag) + ": " + app_name(app) + " scores no pairs (similarity does)");
  CHATTY_CHECK(!(pairs && top), "--pairs and --top_k exclude each other (given pairs, or each vertex's most similar)");
  CHATTY_CHECK(!of || top, "--similar_to names whose most similar vertices --top_k finds: give --top_k too");
  if (pairs) r.pairs = looks_like_list(f.pairs) ? pair_list(f.pairs) : pair_file(f.pairs);
  if (top) {
    CHATTY_CHECK(f.top_k >= 1, "--top_k must be at least 1");
    r.top_k = f.top_k;
  }
  if (of && f.similar_to != "all") {
    const std::string& v = f.similar_to;
    size_t at = 0;
    const size_t end = !v.empty() && v.back() == ',' ? v.size() - 1 : v.size();
    while (at <= end) {
      const size_t comma = std::min(v.find(',', at), end);
      const std::optional<uint64_t> x = parse_id(v.substr(at, comma - at));
      CHATTY_CHECK(x.has_value(), "--similar_to must be all or a list of vertex ids (3,17,42) (got '" + v + "')");
      r.similar_to.push_back(*x);
      at = comma + 1;
    }
  }
  return r;
}

PairQuery resolve_pairs(const PairRequest& r, const Prepared& p) {
  const vid_t n = p.g.num_vertices();
  auto vertex = [&](uint64_t id, const char* flag) {
    const std::optional<vid_t> v = p.info.ids.find(id, n);
    CHATTY_CHECK(v.has_value(), std::string("--") + flag + ": " + std::to_string(id) + " is not a vertex of " + p.name +
                                    " (its ids: " + p.info.ids.describe(n) + ")");
    return p.to_run(*v);
  };
  PairQuery q;
  q.top_k = r.top_k;
  q.pairs.reserve(r.pairs.size());
  for (const auto& [a, b] : r.pairs) q.pairs.emplace_back(vertex(a, "pairs"), vertex(b, "pairs"));
  for (uint64_t id : r.similar_to) q.of.push_back(vertex(id, "similar_to"));
  return q;
}

}  // namespace chatty::job
