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

struct DimacsLine {
  uint64_t n = 0;

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
    s = parse_uint(p, e, UINT32_MAX, w);
    if (s == NumStatus::kOverflow) return "weight too large (max 4294967295)";
    if (s != NumStatus::kOk) return std::string("weight ") + describe(s);
    if (skip_space(p, e) != e) return "malformed line: extra field after 'a u v w'";
    for (uint64_t id : {u, v}) {
      if (id == 0) return "vertex id 0 in a 1-based file";
      if (id > n) return "vertex id " + std::to_string(id) + " out of range 1.." + std::to_string(n);
    }
    out.src.push_back(vid_t(u - 1));
    out.dst.push_back(vid_t(v - 1));
    out.weight.push_back(weight_t(w));
    return {};
  }
};

}  // namespace

Graph load_dimacs(const std::string& path, const BuildOptions& opt) {
  auto file = MappedFile::open(path);
  size_t pos = 0;
  uint64_t line_no = 0, n = 0, m = 0;
  bool have_p = false;
  while (pos < file->size() && !have_p) {
    std::string line = next_line(*file, pos);
    ++line_no;
    const char* p = skip_space(line.data(), line.data() + line.size());
    const char* e = line.data() + line.size();
    if (p == e || *p == 'c') continue;
    char kind[16] = {0};
    char extra = 0;
    int got = std::sscanf(p, "p %15s %" SCNu64 " %" SCNu64 " %c", kind, &n, &m, &extra);
    if (got != 3 || p[0] != 'p' || line.find('-') != std::string::npos)
      throw Error(path + ":" + std::to_string(line_no) + ": expected the problem line 'p sp N M'");
    have_p = true;
  }
  CHATTY_CHECK(have_p, path + ": no problem line 'p sp N M' (empty or not a DIMACS file)");
  CHATTY_CHECK(n > 0 && m > 0,
               path + ": empty graph: header says " + std::to_string(n) + " vertices, " + std::to_string(m) + " arcs");
  CHATTY_CHECK(n <= kMaxVertices - 1, path + ": header vertex count " + std::to_string(n) + " too large");
  DimacsLine parser;
  parser.n = n;
  ParsedBody body = parse_body(*file, pos, line_no + 1, parser);
  CHATTY_CHECK(body.records == m,
               path + ": header says " + std::to_string(m) + " arcs but the file has " + std::to_string(body.records));
  return build_graph(std::move(body.lists), vid_t(n), /*weighted=*/true, opt);
}

void write_dimacs(const Graph& g, const std::string& path) {
  std::string header = "c ChattyGraph export" + std::string(g.weighted() ? "" : " (unit weights)") + "\np sp " +
                       std::to_string(g.num_vertices()) + " " + std::to_string(g.num_edges()) + "\n";
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
}

}  // namespace chatty
