// SNAP / plain edge lists: "u v" or "u v w" per line, 0-based ids kept as
// they are (|V| = max id + 1), '#' and '%' comment lines.
#include <string>

#include "datasets/text_formats.h"
#include "datasets/text_parse.h"
#include "datasets/text_writer.h"

namespace chatty {
namespace {

constexpr uint64_t kMaxId = kMaxVertices - 1;

std::string field_error(const char* field, NumStatus s, uint64_t max) {
  if (s == NumStatus::kOverflow) return std::string(field) + " too large (max " + std::to_string(max) + ")";
  return std::string(field) + " " + describe(s);
}

bool is_comment_or_blank(const char* p, const char* e) {
  p = skip_space(p, e);
  return p == e || *p == '#' || *p == '%';
}

struct EdgeListLine {
  bool weighted = false;

  std::string parse(const char* b, const char* e, EdgeList& out) const {
    if (is_comment_or_blank(b, e)) return {};
    const char* p = b;
    uint64_t u = 0, v = 0, w = 0;
    NumStatus s = parse_uint(p, e, kMaxId, u);
    if (s != NumStatus::kOk) return field_error("source id", s, kMaxId);
    s = parse_uint(p, e, kMaxId, v);
    if (s != NumStatus::kOk) return field_error("target id", s, kMaxId);
    if (weighted) {
      s = parse_uint(p, e, UINT32_MAX, w);
      if (s == NumStatus::kMissing) return "missing weight (earlier lines have three columns)";
      if (s != NumStatus::kOk) return field_error("weight", s, UINT32_MAX);
    }
    p = skip_space(p, e);
    if (p != e)
      return weighted ? "malformed line: expected 'u v w'" : "malformed line: expected 'u v' (or 'u v w' throughout)";
    out.src.push_back(vid_t(u));
    out.dst.push_back(vid_t(v));
    if (weighted) out.weight.push_back(weight_t(w));
    return {};
  }
};

int count_fields(const std::string& line) {
  const char* b = line.data();
  const char* e = b + line.size();
  int fields = 0;
  for (const char* p = skip_space(b, e); p < e; p = skip_space(p, e)) {
    ++fields;
    while (p < e && !is_space(*p)) ++p;
  }
  return fields;
}

// What the sequential look at the file's ends finds: an optional header line
// holding only the vertex count, the column count of the first edge line, and
// an optional end marker "-1" as the last line (a layout some GPU graph
// systems use); the parallel parse then covers [begin, end).
struct Shape {
  size_t begin = 0, end = 0;
  uint64_t first_line = 1;
  bool weighted = false;
  bool has_count = false;
  uint64_t count = 0;
};

Shape sniff(const MappedFile& f) {
  Shape s;
  s.end = f.size();
  // Trailing "-1" marker.
  size_t e = f.size();
  while (e > 0 && (is_space(f.data()[e - 1]) || f.data()[e - 1] == '\n')) --e;
  size_t ls = e;
  while (ls > 0 && f.data()[ls - 1] != '\n') --ls;
  if (std::string(f.data() + ls, e - ls) == "-1") s.end = ls;
  // Header and first edge line.
  size_t pos = 0;
  uint64_t line_no = 0;
  while (pos < s.end) {
    std::string line = next_line(f, pos);
    ++line_no;
    if (is_comment_or_blank(line.data(), line.data() + line.size())) continue;
    const int fields = count_fields(line);
    if (fields == 1 && !s.has_count) {  // only the first data line can be a header
      const char* p = line.data();
      NumStatus st = parse_uint(p, line.data() + line.size(), kMaxVertices - 1, s.count);
      if (st != NumStatus::kOk)
        throw Error(f.path() + ":" + std::to_string(line_no) + ": vertex count header " + describe(st));
      s.has_count = true;
      s.begin = pos;
      s.first_line = line_no + 1;
      continue;
    }
    s.weighted = fields == 3;
    break;
  }
  return s;
}

}  // namespace

Graph load_edge_list(const std::string& path, const BuildOptions& opt) {
  auto file = MappedFile::open(path);
  const Shape shape = sniff(*file);
  EdgeListLine parser;
  parser.weighted = shape.weighted;
  ParsedBody body = parse_body(*file, shape.begin, shape.first_line, parser, shape.end);
  CHATTY_CHECK(body.any, path + ": empty graph: no edges");
  uint64_t n = body.max_id + 1;
  if (shape.has_count) {
    CHATTY_CHECK(body.max_id < shape.count, path + ": vertex id " + std::to_string(body.max_id) +
                                                " out of range: the header says " + std::to_string(shape.count) +
                                                " vertices");
    n = shape.count;
  }
  return build_graph(std::move(body.lists), vid_t(n), parser.weighted, opt);
}

void write_edge_list(const Graph& g, const std::string& path) {
  std::string header = "# ChattyGraph edge list: " + std::to_string(g.num_vertices()) + " vertices, " +
                       std::to_string(g.num_edges()) + " edges" + (g.directed() ? "" : " (both directions)") + "\n";
  const bool weighted = g.weighted();
  write_text_graph(g, path, header, [weighted](vid_t u, vid_t v, weight_t w, std::string& s) {
    append_uint(s, u);
    s.push_back(' ');
    append_uint(s, v);
    if (weighted) {
      s.push_back(' ');
      append_uint(s, w);
    }
    s.push_back('\n');
  });
}

}  // namespace chatty
