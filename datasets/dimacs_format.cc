// DIMACS shortest-path format (9th challenge): "p sp N M" then M lines
// "a u v w" with 1-based ids, "c" comments anywhere. Ids become 0-based.
#include <cinttypes>
#include <cstdio>
#include <string>

#include "datasets/text_formats.h"
#include "datasets/text_parse.h"
#include "datasets/text_writer.h"

namespace chatty {
namespace {

// Comments the writer leaves so that a round trip keeps what DIMACS cannot
// say: an undirected graph, and an unweighted one (arcs of weight 1).
constexpr const char* kUndirectedMark = "c undirected graph";
constexpr const char* kUnitMark = "c unweighted graph";

struct DimacsLine {
  uint64_t n = 0;
  bool keep = true;  // weights stored

  std::string parse(const char* b, const char* e, EdgeList& out) const {
    const char* p = skip_space(b, e);
    if (p == e || *p == 'c') return {};
    if (*p != 'a' || p + 1 >= e || !is_space(p[1])) return "malformed line: expected 'a u v w' or 'c ...'";
    ++p;
    uint64_t u = 0, v = 0, w = 0;
    NumStatus s = parse_uint(p, e, UINT64_MAX / 16, u);
    if (s != NumStatus::kOk) return std::string("source id ") + describe(s);
    s = parse_uint(p, e, UINT64_MAX / 16, v);
    if (s != NumStatus::kOk) return std::string("target id ") + describe(s);
    if (skip_space(p, e) == e) return "weight missing";
    std::string err = parse_weight(p, e, keep, w);
    if (!err.empty()) return err;
    if (skip_space(p, e) != e) return "malformed line: extra field after 'a u v w'";
    for (uint64_t id : {u, v}) {
      if (id == 0) return "vertex id 0 in a 1-based file";
      if (id > n) return "vertex id " + std::to_string(id) + " out of range 1.." + std::to_string(n);
    }
    out.src.push_back(vid_t(u - 1));
    out.dst.push_back(vid_t(v - 1));
    if (keep) out.weight.push_back(weight_t(w));
    return {};
  }
};

}  // namespace

Graph load_dimacs(TextSource& src, const LoadOptions& opt, LoadInfo& info) {
  const std::string& path = src.path();
  LineCursor lines(src.first());
  uint64_t n = 0, m = 0;
  bool have_p = false, undirected = false, unit = false;
  while (!lines.done() && !have_p) {
    std::string line = lines.next();
    const char* p = skip_space(line.data(), line.data() + line.size());
    const char* e = line.data() + line.size();
    if (p == e) continue;
    if (*p == 'c') {  // the marks this project's writer leaves
      undirected = undirected || line.rfind(kUndirectedMark, 0) == 0;
      unit = unit || line.rfind(kUnitMark, 0) == 0;
      continue;
    }
    char kind[16] = {0};
    char extra = 0;
    int got = std::sscanf(p, "p %15s %" SCNu64 " %" SCNu64 " %c", kind, &n, &m, &extra);
    if (got != 3 || p[0] != 'p' || line.find('-') != std::string::npos)
      throw Error(path + ":" + std::to_string(lines.line_no) + ": expected the problem line 'p sp N M'");
    have_p = true;
  }
  CHATTY_CHECK(have_p, path + ": no problem line 'p sp N M' (empty or not a DIMACS file)");
  CHATTY_CHECK(n > 0 && m > 0,
               path + ": empty graph: header says " + std::to_string(n) + " vertices, " + std::to_string(m) + " arcs");
  CHATTY_CHECK(n <= kMaxVertices - 1, path + ": header vertex count " + std::to_string(n) + " too large");
  DimacsLine parser;
  parser.n = n;
  parser.keep = opt.weights == WeightUse::kNeeded && !unit;
  ParsedBody body = parse_text(src, lines.pos, lines.line_no + 1, parser);
  CHATTY_CHECK(body.records == m,
               path + ": header says " + std::to_string(m) + " arcs but the file has " + std::to_string(body.records));
  BuildOptions build = opt.build;
  build.symmetrize = build.symmetrize || undirected;
  info.format = "DIMACS";
  info.ids.scheme = IdScheme::kOneBased;
  info.weights_dropped = !parser.keep && !unit;
  info.direction_reason = opt.build.symmetrize ? "asked for (--undirected)"
                          : undirected         ? "the file's 'c undirected graph' comment"
                                               : "DIMACS arcs are directed";
  return build_graph(std::move(body.lists), vid_t(n), parser.keep, build);
}

std::string write_dimacs(const Graph& g, const std::string& path) {
  std::string header = "c ChattyGraph export\n";
  if (!g.directed()) header += std::string(kUndirectedMark) + ": every edge is listed in both directions\n";
  if (!g.weighted()) header += std::string(kUnitMark) + ": every arc has weight 1\n";
  header += "p sp " + std::to_string(g.num_vertices()) + " " + std::to_string(g.num_edges()) + "\n";
  const bool weighted = g.weighted();
  write_text_graph(g, path, header, [weighted](vid_t u, vid_t v, weight_t w, std::string& s) {
    s += "a ";
    append_uint(s, uint64_t(u) + 1);
    s.push_back(' ');
    append_uint(s, uint64_t(v) + 1);
    s.push_back(' ');
    append_uint(s, weighted ? w : 1);
    s.push_back('\n');
  });
  return {};
}

}  // namespace chatty
