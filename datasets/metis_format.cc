// METIS graphs (.graph, DIMACS-10's format): a header "n m [fmt [ncon]]",
// then line i (1-based, '%' lines are comments) lists the neighbours of
// vertex i, each followed by its edge weight when fmt's last digit is 1
// and preceded by ncon vertex weights when its middle digit is 1 (ignored).
// A proper METIS file lists every edge in both lines and m counts it once:
// the graph is undirected. GAP's test graphs list m out-edges: directed.
// fmt 100 is read as GAP reads it, as plain neighbour lists.
#include <omp.h>

#include <string>
#include <vector>

#include "datasets/text_formats.h"
#include "datasets/text_parse.h"

namespace chatty {
namespace {

struct Header {
  uint64_t n = 0, m = 0;
  bool edge_weights = false;
  int vertex_weights = 0;  // values to skip at each line's start
};

Header read_header(LineCursor& lines, const std::string& path) {
  Header h;
  while (!lines.done()) {
    std::string line = lines.next();
    const char* p = skip_space(line.data(), line.data() + line.size());
    const char* e = line.data() + line.size();
    if (p == e || *p == '%') continue;
    uint64_t fmt = 0, ncon = 1;
    const std::string at = path + ":" + std::to_string(lines.line_no) + ": ";
    CHATTY_CHECK(parse_uint(p, e, kMaxVertices - 1, h.n) == NumStatus::kOk &&
                     parse_uint(p, e, UINT64_MAX / 16, h.m) == NumStatus::kOk,
                 at + "expected the METIS header 'vertices edges [fmt [ncon]]'");
    std::string fmt_text;
    if (skip_space(p, e) != e) {
      const char* f = skip_space(p, e);
      while (f < e && !is_space(*f)) fmt_text.push_back(*f++);
      CHATTY_CHECK(parse_uint(p, e, 999, fmt) == NumStatus::kOk, at + "bad METIS fmt '" + fmt_text + "'");
      if (skip_space(p, e) != e)
        CHATTY_CHECK(parse_uint(p, e, 64, ncon) == NumStatus::kOk && skip_space(p, e) == e,
                     at + "bad METIS ncon (vertex weights per vertex)");
    }
    if (fmt == 100) fmt = 0;  // GAP's test graphs
    CHATTY_CHECK(fmt == 0 || fmt == 1 || fmt == 10 || fmt == 11,
                 at + "METIS fmt '" + fmt_text + "' (vertex sizes) is not supported (0, 1, 10 or 11)");
    h.edge_weights = fmt % 10 == 1;
    h.vertex_weights = fmt / 10 == 1 ? int(ncon) : 0;
    CHATTY_CHECK(h.n > 0 && h.m > 0, path + ": empty graph: the header says " + std::to_string(h.n) + " vertices, " +
                                         std::to_string(h.m) + " edges");
    return h;
  }
  throw Error(path + ": no METIS header 'vertices edges [fmt]' (empty file?)");
}

bool is_comment(const char* p, const char* e) {
  p = skip_space(p, e);
  return p < e && *p == '%';
}

// One vertex line: u's neighbours (and weights) into out; "" or the problem.
std::string parse_line(const Header& h, bool keep, uint64_t u, const char* p, const char* e, EdgeList& out) {
  for (int k = 0; k < h.vertex_weights; ++k) {
    uint64_t skip = 0;
    if (parse_uint(p, e, UINT64_MAX / 16, skip) != NumStatus::kOk) return "missing or bad vertex weight";
  }
  for (p = skip_space(p, e); p < e; p = skip_space(p, e)) {
    uint64_t v = 0, w = 0;
    NumStatus s = parse_uint(p, e, UINT64_MAX / 16, v);
    if (s != NumStatus::kOk) return std::string("neighbour id ") + describe(s);
    if (v > h.n) return "neighbour id " + std::to_string(v) + " out of range 1.." + std::to_string(h.n);
    if (v == 0) return "neighbour id 0 in a 1-based file";
    if (h.edge_weights) {
      if (skip_space(p, e) == e) return "missing edge weight after neighbour " + std::to_string(v);
      std::string err = parse_weight(p, e, keep, w);
      if (!err.empty()) return err;
    }
    out.src.push_back(vid_t(u));
    out.dst.push_back(vid_t(v - 1));
    if (keep) out.weight.push_back(weight_t(w));
  }
  return {};
}

// Parses the vertex lines of [b, e), the first of which is vertex `first`.
// Two passes over per-thread chunks: count each chunk's vertex lines, then
// parse knowing every line's vertex. Returns the vertex lines seen.
uint64_t parse_block(const Header& h, bool keep, const std::string& path, const char* b, const char* e, uint64_t first,
                     uint64_t& line_no, std::vector<EdgeList>& lists) {
  const int threads = e - b < (1 << 16) ? 1 : omp_get_max_threads();
  std::vector<const char*> cut(size_t(threads) + 1, e);
  cut[0] = b;
  for (int t = 1; t < threads; ++t) {
    const char* c = std::max(b + (e - b) * t / threads, cut[size_t(t) - 1]);
    while (c > b && c < e && c[-1] != '\n') ++c;
    cut[size_t(t)] = c;
  }
  std::vector<uint64_t> vertices(size_t(threads) + 1, 0), lines(size_t(threads) + 1, 0), err_line(size_t(threads), 0);
  std::vector<std::string> err{size_t(threads)};
  const size_t base = lists.size();
  lists.resize(base + size_t(threads));
#pragma omp parallel num_threads(threads)
  {
    const size_t t = size_t(omp_get_thread_num());
    for (const char* p = cut[t]; p < cut[t + 1];) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(cut[t + 1] - p)));
      const char* le = nl ? nl : cut[t + 1];
      vertices[t + 1] += !is_comment(p, le);
      ++lines[t + 1];
      p = nl ? nl + 1 : cut[t + 1];
    }
#pragma omp barrier
#pragma omp single
    for (size_t k = 1; k <= size_t(threads); ++k) vertices[k] += vertices[k - 1], lines[k] += lines[k - 1];
    uint64_t u = first + vertices[t], n_lines = 0;
    for (const char* p = cut[t]; p < cut[t + 1] && err[t].empty(); ++n_lines) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(cut[t + 1] - p)));
      const char* le = nl ? nl : cut[t + 1];
      if (!is_comment(p, le)) {
        if (u >= h.n) {
          if (skip_space(p, le) != le) err[t] = "more vertex lines than the header's " + std::to_string(h.n);
        } else {
          err[t] = parse_line(h, keep, u, p, le, lists[base + t]);
        }
        ++u;
      }
      if (!err[t].empty()) err_line[t] = n_lines;
      p = nl ? nl + 1 : cut[t + 1];
    }
  }
  for (size_t t = 0; t < size_t(threads); ++t)
    if (!err[t].empty()) throw Error(path + ":" + std::to_string(line_no + lines[t] + err_line[t]) + ": " + err[t]);
  line_no += lines[size_t(threads)];
  return vertices[size_t(threads)];
}

}  // namespace

Graph load_metis(TextSource& src, const LoadOptions& opt, LoadInfo& info) {
  const std::string& path = src.path();
  LineCursor lines(src.first());
  const Header h = read_header(lines, path);
  const bool keep = h.edge_weights && opt.weights == WeightUse::kNeeded;
  std::vector<EdgeList> lists;
  uint64_t line_no = lines.line_no + 1, vertex_lines = 0;
  TextBlock b;
  for (bool first = true; src.next(b); first = false) {
    const size_t from = first ? std::min(lines.pos, b.size) : 0;
    vertex_lines += parse_block(h, keep, path, b.data + from, b.data + b.size, vertex_lines, line_no, lists);
  }
  CHATTY_CHECK(vertex_lines >= h.n, path + ": the header says " + std::to_string(h.n) + " vertices but the file has " +
                                        std::to_string(vertex_lines) + " vertex lines");
  uint64_t entries = 0;
  for (const EdgeList& l : lists) entries += l.size();
  CHATTY_CHECK(entries == h.m || entries == 2 * h.m,
               path + ": the header says " + std::to_string(h.m) + " edges but the lines list " +
                   std::to_string(entries) + " neighbours (expected " + std::to_string(h.m) + " out-edges, or " +
                   std::to_string(2 * h.m) + " for an undirected graph listing each edge twice)");
  const bool undirected = entries == 2 * h.m;
  BuildOptions build = opt.build;
  build.symmetrize = build.symmetrize || undirected;
  info.format = "METIS";
  info.ids.scheme = IdScheme::kOneBased;
  info.weights_dropped = h.edge_weights && !keep;
  info.direction_reason = opt.build.symmetrize ? "asked for (--undirected)"
                          : undirected         ? "METIS lines list each edge twice"
                                               : "METIS lines list each edge once (as GAP's test graphs)";
  return build_graph(std::move(lists), vid_t(h.n), keep, build);
}

}  // namespace chatty
