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

// Counts the fields of the first data line: 3 means a weighted file.
bool first_data_line_has_weight(const MappedFile& f) {
  size_t pos = 0;
  while (pos < f.size()) {
    std::string line = next_line(f, pos);
    const char* b = line.data();
    const char* e = b + line.size();
    if (is_comment_or_blank(b, e)) continue;
    int fields = 0;
    for (const char* p = skip_space(b, e); p < e; p = skip_space(p, e)) {
      ++fields;
      while (p < e && !is_space(*p)) ++p;
    }
    return fields == 3;
  }
  return false;
}

}  // namespace

Graph load_edge_list(const std::string& path, const BuildOptions& opt) {
  auto file = MappedFile::open(path);
  EdgeListLine parser;
  parser.weighted = first_data_line_has_weight(*file);
  ParsedBody body = parse_body(*file, 0, 1, parser);
  CHATTY_CHECK(body.any, path + ": empty graph: no edges");
  return build_graph(std::move(body.lists), vid_t(body.max_id + 1), parser.weighted, opt);
}

void write_edge_list(const Graph& g, const std::string& path) {
  std::string header = "# ChattyGraph edge list: " + std::to_string(g.num_vertices()) + " vertices, " +
                       std::to_string(g.num_edges()) + " edges" + (g.directed() ? "" : " (both directions)") +
                       "\n";
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
