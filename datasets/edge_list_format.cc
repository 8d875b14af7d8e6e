// SNAP / KONECT / GAP edge lists: "u v" or "u v w" per line, '#' and '%'
// comment lines, and the headers that say whether the graph is undirected.
// Vertices are the ids that occur (SNAP, KONECT, plain text), or positions
// 0..max id (GAP's .el/.wel; KONECT's 1-based ids as positions 1..max).
#include <algorithm>
#include <cctype>
#include <string>
#include <type_traits>
#include <vector>

#include "datasets/file_compressor.h"
#include "datasets/id_compaction.h"
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

// One line "u v [w]" into List: EdgeList with ids up to kMaxId shifted by
// `shift` (positions), or WideEdgeList with any 64-bit id kept as written
// (the ids that occur, compacted after the parse).
template <typename L>
struct EdgeListLine {
  using List = L;
  static constexpr uint64_t kMax = std::is_same_v<L, WideEdgeList> ? UINT64_MAX : kMaxId;
  bool has_weight = false;   // a third column
  bool keep_weight = false;  // stored (else checked and dropped)
  bool extra_columns = false;
  uint64_t shift = 0;  // 1 for 1-based ids (positions only)

  std::string parse(const char* b, const char* e, L& out) const {
    if (is_comment_or_blank(b, e)) return {};
    const char* p = b;
    uint64_t u = 0, v = 0, w = 0;
    NumStatus s = parse_uint(p, e, kMax + shift, u);
    if (s != NumStatus::kOk) return field_error("source id", s, kMax + shift);
    s = parse_uint(p, e, kMax + shift, v);
    if (s != NumStatus::kOk) return field_error("target id", s, kMax + shift);
    if (shift && (u == 0 || v == 0)) return "vertex id 0 in a 1-based (KONECT) file";
    if (has_weight) {
      if (skip_space(p, e) == e) return "missing weight (earlier lines have three columns)";
      std::string err = parse_weight(p, e, keep_weight, w);
      if (!err.empty()) return err;
    }
    if (extra_columns) {
      p = e;
    } else if (skip_space(p, e) != e) {
      return has_weight ? "malformed line: expected 'u v w'" : "malformed line: expected 'u v' (or 'u v w' throughout)";
    }
    using Id = typename decltype(out.src)::value_type;
    out.src.push_back(Id(u - shift));
    out.dst.push_back(Id(v - shift));
    if (keep_weight) out.weight.push_back(weight_t(w));
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

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// What the sequential look at the head finds: the direction headers, an
// optional line holding only the vertex count, and the column count of the
// first edge line; the parallel parse starts at `begin`.
struct Shape {
  size_t begin = 0;
  uint64_t first_line = 1;
  int columns = 2;
  bool has_count = false;
  uint64_t count = 0;  // from a count line, or a lower bound from "# Nodes: N"
  bool konect = false;
  int undirected = -1;  // -1 unsaid, 0 directed, 1 undirected
  std::string why;      // the header that said it
};

// A comment line's say on the shape: SNAP's "# Undirected graph ..." /
// "# Directed graph ..." / "# Nodes: N ...", KONECT's "% sym|asym|bip ...".
void read_comment(const std::string& line, uint64_t line_no, const std::string& name, Shape& s) {
  const std::string l = lower(line);
  size_t i = 1;
  while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
  const std::string body = l.substr(i);
  if (l[0] == '#' && body.rfind("undirected graph", 0) == 0 && s.undirected < 0) {
    s.undirected = 1;
    s.why = "the file's '# Undirected graph' header";
  } else if (l[0] == '#' && body.rfind("directed graph", 0) == 0 && s.undirected < 0) {
    s.undirected = 0;
    s.why = "the file's '# Directed graph' header";
  } else if (l[0] == '#' && body.rfind("nodes:", 0) == 0) {
    s.count = std::strtoull(body.c_str() + 6, nullptr, 10);
  } else if (l[0] == '%' && line_no == 1) {
    const std::string kind = body.substr(0, body.find_first_of(" \t"));
    if (kind == "bip")
      throw Error(name +
                  ":1: a KONECT bipartite graph ('% bip'): its two vertex sets share ids, which a graph of "
                  "one vertex set would merge; not supported");
    if (kind == "sym" || kind == "asym") {
      s.konect = true;
      s.undirected = kind == "sym";
      s.why = "the KONECT header '% " + kind + "'";
    }
  }
}

Shape sniff(const TextSource& src) {
  Shape s;
  LineCursor lines(src.first());
  while (!lines.done()) {
    std::string line = lines.next();
    if (is_comment_or_blank(line.data(), line.data() + line.size())) {
      if (!line.empty() && (line[0] == '#' || line[0] == '%')) read_comment(line, lines.line_no, src.path(), s);
      continue;
    }
    const int fields = count_fields(line);
    if (fields == 1 && !s.has_count && !s.konect) {  // only the first data line can be a header
      const char* p = line.data();
      NumStatus st = parse_uint(p, line.data() + line.size(), kMaxVertices - 1, s.count);
      if (st != NumStatus::kOk)
        throw Error(src.path() + ":" + std::to_string(lines.line_no) + ": vertex count header " + describe(st));
      s.has_count = true;
      s.begin = lines.pos;
      s.first_line = lines.line_no + 1;
      continue;
    }
    s.columns = fields;
    break;
  }
  return s;
}

}  // namespace

namespace {

// GAP's formats, and files that open with a vertex count, number vertices
// by position; every other edge list names them by the ids that occur.
bool positions_by_default(const TextSource& src, const Shape& shape) {
  const std::string name = lower(without_compression_suffix(src.path()));  // g.el.gz is a GAP .el
  const std::string ext = name.substr(name.find_last_of('.') + 1);
  return shape.has_count || ext == "el" || ext == "wel";
}

std::string direction_reason(const LoadOptions& opt, const Shape& shape) {
  if (opt.build.symmetrize) return "asked for (--undirected)";
  if (shape.undirected >= 0) return shape.why;
  return "an edge list without an '# Undirected graph' header; --undirected symmetrizes";
}

// The line parser for the file's columns; says whether weights are dropped.
template <typename L>
EdgeListLine<L> line_parser(const Shape& shape, const LoadOptions& opt, LoadInfo& info) {
  EdgeListLine<L> parser;
  parser.has_weight = shape.columns >= 3;
  parser.keep_weight = parser.has_weight && opt.weights == WeightUse::kNeeded;
  parser.extra_columns = shape.konect;  // KONECT's fourth column is a timestamp
  info.weights_dropped = parser.has_weight && !parser.keep_weight;
  return parser;
}

// The ids that occur, numbered in ascending order.
Graph load_occurring(TextSource& src, const LoadOptions& opt, LoadInfo& info, const Shape& shape) {
  const EdgeListLine<WideEdgeList> parser = line_parser<WideEdgeList>(shape, opt, info);
  BasicParsedBody<WideEdgeList> body = parse_text(src, shape.begin, shape.first_line, parser, /*end_marker=*/true);
  CHATTY_CHECK(body.any, src.path() + ": empty graph: no edges");
  std::vector<EdgeList> lists;
  info.ids.scheme = IdScheme::kOccurring;
  info.ids.original = compact_ids(body.lists, body.max_id, lists);
  CHATTY_CHECK(info.ids.original.size() <= kMaxVertices, src.path() + ": " + std::to_string(info.ids.original.size()) +
                                                             " distinct ids: at most " + std::to_string(kMaxVertices) +
                                                             " vertices");
  BuildOptions build = opt.build;
  if (shape.undirected == 1) build.symmetrize = true;
  info.direction_reason = direction_reason(opt, shape);
  return build_graph(std::move(lists), vid_t(info.ids.original.size()), parser.keep_weight, build);
}

}  // namespace

Graph load_edge_list(TextSource& src, const LoadOptions& opt, LoadInfo& info) {
  const Shape shape = sniff(src);
  info.format = shape.konect ? "KONECT edge list" : "edge list";
  const bool positions =
      opt.ids == IdChoice::kPositions || (opt.ids == IdChoice::kAuto && positions_by_default(src, shape));
  if (!positions) return load_occurring(src, opt, info, shape);
  EdgeListLine<EdgeList> parser = line_parser<EdgeList>(shape, opt, info);
  parser.shift = shape.konect ? 1 : 0;
  info.ids.scheme = shape.konect ? IdScheme::kOneBased : IdScheme::kPositions;
  ParsedBody body = parse_text(src, shape.begin, shape.first_line, parser, /*end_marker=*/true);
  CHATTY_CHECK(body.any, src.path() + ": empty graph: no edges");
  // Positions reach every id up to the largest: a file whose largest id is
  // far beyond its edges would allocate for nothing.
  CHATTY_CHECK(shape.has_count || body.max_id < 64 * body.records + (uint64_t(1) << 20),
               src.path() + ": its largest id, " + std::to_string(body.max_id + parser.shift) + ", is far beyond its " +
                   std::to_string(body.records) +
                   " edges: with --ids=positions every id up to it is a vertex; --ids=occurring takes "
                   "only the ids that occur");
  uint64_t n = body.max_id + 1;
  if (shape.has_count) {
    CHATTY_CHECK(body.max_id < shape.count, src.path() + ": vertex id " + std::to_string(body.max_id) +
                                                " out of range: the header says " + std::to_string(shape.count) +
                                                " vertices");
    n = shape.count;
  } else if (shape.count > n && shape.count <= kMaxVertices) {
    n = shape.count;  // "# Nodes: N" keeps isolated vertices at the end
  }
  BuildOptions build = opt.build;
  if (shape.undirected == 1) build.symmetrize = true;
  info.direction_reason = direction_reason(opt, shape);
  return build_graph(std::move(body.lists), vid_t(n), parser.keep_weight, build);
}

namespace {

// Vertices without an edge in or out: an edge list cannot name them.
uint64_t isolated_vertices(const Graph& g) {
  const Csr& c = g.out();
  std::vector<char> touched(g.num_vertices(), 0);
  for (vid_t u = 0; u < g.num_vertices(); ++u)
    if (c.degree(u)) {
      touched[u] = 1;
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) touched[c.targets[e]] = 1;
    }
  return uint64_t(std::count(touched.begin(), touched.end(), 0));
}

}  // namespace

std::string write_edge_list(const Graph& g, const std::string& path, EdgeListStyle style, const VertexIds& input_ids) {
  // GAP reads .el/.wel ids as positions, so positions are written; SNAP text
  // keeps the input's ids, as a reader of the ids that occur takes them.
  const bool gap = style == EdgeListStyle::kGapEl || style == EdgeListStyle::kGapWel;
  const VertexIds ids = gap ? VertexIds{} : input_ids;
  std::vector<std::string> notes;
  if (gap && input_ids.scheme == IdScheme::kOccurring)
    notes.push_back("the input's ids are not kept: GAP's .el/.wel number vertices by position 0.." +
                    std::to_string(g.num_vertices() - 1) + " (write .txt to keep them)");
  if (!gap)
    if (const uint64_t lone = isolated_vertices(g))
      notes.push_back(std::to_string(lone) +
                      " isolated vertices are not in the file: an edge list names vertices by "
                      "their edges (write .el or .cgr to keep them)");
  const bool undirected = !g.directed();
  const bool weighted = g.weighted() && style != EdgeListStyle::kGapEl;
  CHATTY_CHECK(g.weighted() || style != EdgeListStyle::kGapWel,
               path + ": the graph has no weights and .wel needs one per edge (write .el)");
  // Only SNAP text has a header: GAP's reader stops at a '#' line, and a
  // CSV reader takes the first line for column names.
  std::string header;
  if (style == EdgeListStyle::kSnap) {
    header = undirected ? "# Undirected graph (each unordered pair of nodes is saved once)\n" : "# Directed graph\n";
    header += "# Nodes: " + std::to_string(g.num_vertices()) + " Edges: " + std::to_string(edges_once(g)) + "\n";
  } else if (undirected) {
    notes.push_back(
        "the graph is undirected and each edge is written once, with no header to say so: read it "
        "back with --undirected (GAP: -s), or write .txt to keep it");
  }
  const char sep = style == EdgeListStyle::kCsv ? ',' : ' ';
  write_text_graph(g, path, header, [&](vid_t u, vid_t v, weight_t w, std::string& s) {
    if (undirected && v < u) return;  // each edge once
    append_uint(s, ids.of(u));
    s.push_back(sep);
    append_uint(s, ids.of(v));
    if (weighted) {
      s.push_back(sep);
      append_uint(s, w);
    }
    s.push_back('\n');
  });
  if (g.weighted() && !weighted) notes.push_back("weights not written: .el has two columns (write .wel to keep them)");
  std::string all;
  for (const std::string& n : notes) all += (all.empty() ? "" : "; ") + n;
  return all;
}

}  // namespace chatty
