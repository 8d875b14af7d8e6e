// Matrix Market coordinate matrices as graphs: entry (i, j) is the edge
// i-1 -> j-1. "symmetric" gives an undirected graph. Values are weights:
// kept only when they are non-negative integers (a real of integral value
// included), never rounded; a caller that ignores weights takes any value.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include "datasets/text_formats.h"
#include "datasets/text_parse.h"
#include "datasets/text_writer.h"

namespace chatty {
namespace {

enum class Field { kPattern, kInteger, kReal };

struct MtxLine {
  uint64_t rows = 0, cols = 0;
  Field field = Field::kPattern;
  bool keep = false;  // values stored as weights

  std::string parse(const char* b, const char* e, EdgeList& out) const {
    const char* p = skip_space(b, e);
    if (p == e || *p == '%') return {};
    uint64_t i = 0, j = 0;
    NumStatus s = parse_uint(p, e, UINT64_MAX / 16, i);
    if (s != NumStatus::kOk) return std::string("row index ") + describe(s);
    s = parse_uint(p, e, UINT64_MAX / 16, j);
    if (s != NumStatus::kOk) return std::string("column index ") + describe(s);
    if (i == 0 || j == 0) return "index 0 in a 1-based file";
    if (i > rows) return "row index " + std::to_string(i) + " out of range 1.." + std::to_string(rows);
    if (j > cols) return "column index " + std::to_string(j) + " out of range 1.." + std::to_string(cols);
    uint64_t w = 0;
    if (field != Field::kPattern) {
      if (skip_space(p, e) == e) return "missing value";
      std::string err = parse_weight(p, e, keep, w);
      if (!err.empty()) return err;
    }
    if (skip_space(p, e) != e) return "malformed entry: extra field";
    out.src.push_back(vid_t(i - 1));
    out.dst.push_back(vid_t(j - 1));
    if (keep) out.weight.push_back(weight_t(w));
    return {};
  }
};

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

Graph load_matrix_market(TextSource& src, const LoadOptions& opt, LoadInfo& info) {
  const std::string& path = src.path();
  LineCursor lines(src.first());
  std::string banner = lines.next();
  std::istringstream bs(lower(banner));
  std::string tag, object, format, field, symmetry;
  bs >> tag >> object >> format >> field >> symmetry;
  const std::string at = path + ":1: ";
  CHATTY_CHECK(tag == "%%matrixmarket" && object == "matrix",
               at + "not a Matrix Market file (expected '%%MatrixMarket matrix ...')");
  CHATTY_CHECK(format == "coordinate", at + "only 'coordinate' matrices are graphs (got '" + format +
                                           "': a dense array lists every entry, not edges)");
  MtxLine parser;
  if (field == "pattern")
    parser.field = Field::kPattern;
  else if (field == "integer")
    parser.field = Field::kInteger;
  else if (field == "real" || field == "double")
    parser.field = Field::kReal;
  else
    throw Error(at + "unsupported value type '" + field + "' (pattern, integer or real)");
  CHATTY_CHECK(symmetry == "general" || symmetry == "symmetric",
               at + "unsupported symmetry '" + symmetry +
                   "' (general or symmetric; skew-symmetric and hermitian matrices are not graphs with one weight "
                   "per edge)");
  parser.keep = parser.field != Field::kPattern && opt.weights == WeightUse::kNeeded;

  uint64_t nnz = 0;
  bool have_size = false;
  while (!lines.done() && !have_size) {
    std::string line = lines.next();
    const char* p = skip_space(line.data(), line.data() + line.size());
    const char* e = line.data() + line.size();
    if (p == e || *p == '%') continue;
    NumStatus a = parse_uint(p, e, kMaxVertices - 1, parser.rows);
    NumStatus b = a == NumStatus::kOk ? parse_uint(p, e, kMaxVertices - 1, parser.cols) : a;
    NumStatus c = b == NumStatus::kOk ? parse_uint(p, e, UINT64_MAX / 16, nnz) : b;
    if (c != NumStatus::kOk || skip_space(p, e) != e)
      throw Error(path + ":" + std::to_string(lines.line_no) + ": expected the size line 'rows cols entries'");
    have_size = true;
  }
  CHATTY_CHECK(have_size, path + ": missing the size line 'rows cols entries'");
  CHATTY_CHECK(nnz > 0 && parser.rows > 0, path + ": empty graph: size line says " + std::to_string(nnz) + " entries");
  ParsedBody body = parse_text(src, lines.pos, lines.line_no + 1, parser);
  CHATTY_CHECK(body.records == nnz, path + ": size line says " + std::to_string(nnz) + " entries but the file has " +
                                        std::to_string(body.records));
  BuildOptions build = opt.build;
  if (symmetry == "symmetric") build.symmetrize = true;
  info.format = "Matrix Market";
  info.ids.scheme = IdScheme::kOneBased;
  info.weights_dropped = parser.field != Field::kPattern && !parser.keep;
  info.direction_reason = opt.build.symmetrize ? "asked for (--undirected)" : "Matrix Market '" + symmetry + "'";
  vid_t n = vid_t(std::max(parser.rows, parser.cols));
  return build_graph(std::move(body.lists), n, parser.keep, build);
}

std::string write_matrix_market(const Graph& g, const std::string& path) {
  const bool weighted = g.weighted();
  const bool sym = !g.directed();
  const vid_t n = g.num_vertices();
  const eid_t entries = edges_once(g);
  std::string header = std::string("%%MatrixMarket matrix coordinate ") + (weighted ? "integer" : "pattern") +
                       (sym ? " symmetric" : " general") + "\n% ChattyGraph export\n" + std::to_string(n) + " " +
                       std::to_string(n) + " " + std::to_string(entries) + "\n";
  write_text_graph(g, path, header, [&](vid_t u, vid_t v, weight_t w, std::string& s) {
    if (sym && v > u) return;  // lower triangle only
    append_uint(s, uint64_t(u) + 1);
    s.push_back(' ');
    append_uint(s, uint64_t(v) + 1);
    if (weighted) {
      s.push_back(' ');
      append_uint(s, w);
    }
    s.push_back('\n');
  });
  return {};
}

}  // namespace chatty
