#include "datasets/second_reading.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <parallel/algorithm>
#include <string_view>

#include "datasets/byte_reader.h"
#include "runtime/base/status.h"

namespace chatty {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The file's name without a compression suffix, lower case.
std::string plain_name(const std::string& path) {
  std::string p = lower(path);
  for (const std::string z : {".gz", ".zst", ".zstd", ".bz2"})
    if (p.size() > z.size() && p.compare(p.size() - z.size(), z.size(), z) == 0)
      return p.substr(0, p.size() - z.size());
  return p;
}

std::string ext_of(const std::string& path) {
  const std::string p = plain_name(path);
  const size_t dot = p.find_last_of('.'), slash = p.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return p.substr(dot + 1);
}

// The file's lines, one at a time, decompressed where its magic says so.
class Lines {
 public:
  explicit Lines(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY);
    CHATTY_CHECK(fd_ >= 0, path + ": cannot be opened for the second reading");
    char head[8];
    const ssize_t got = ::read(fd_, head, sizeof head);
    CHATTY_CHECK(got >= 0, path + ": cannot be read for the second reading");
    const Compression c = compression_of(head, size_t(got));
    reader_ = fd_reader(fd_, std::string(head, size_t(got)), path);
    if (c != Compression::kNone) reader_ = decompressor(c, std::move(reader_), path);
  }
  ~Lines() { ::close(fd_); }
  Lines(const Lines&) = delete;
  Lines& operator=(const Lines&) = delete;

  bool next(std::string& line) {
    line.clear();
    for (;;) {
      if (at_ == buf_.size()) {
        buf_.resize(1 << 20);
        buf_.resize(reader_->read(buf_.data(), buf_.size()));
        at_ = 0;
        if (buf_.empty()) return !line.empty() && ++number;
      }
      const size_t nl = buf_.find('\n', at_);
      const size_t end = nl == std::string::npos ? buf_.size() : nl;
      line.append(buf_, at_, end - at_);
      at_ = end;
      if (nl != std::string::npos) {
        ++at_;
        ++number;
        return true;
      }
    }
  }
  uint64_t number = 0;  // of the last line returned

 private:
  std::string path_;
  int fd_ = -1;
  std::unique_ptr<ByteReader> reader_;
  std::string buf_;
  size_t at_ = 0;
};

// Fields split by blanks or commas.
// Fields split by blanks or commas, as views into `line`.
std::vector<std::string_view> fields(const std::string& line) {
  std::vector<std::string_view> out;
  const auto sep = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == ','; };
  for (size_t i = 0; i < line.size();) {
    while (i < line.size() && sep(line[i])) ++i;
    const size_t b = i;
    while (i < line.size() && !sep(line[i])) ++i;
    if (i > b) out.emplace_back(line.data() + b, i - b);
  }
  return out;
}

bool blank_or(const std::vector<std::string_view>& f, char comment) { return f.empty() || f[0][0] == comment; }

}  // namespace

class SecondReader {
 public:
  SecondReader(const std::string& path, const LoadOptions& opt) : path_(path), opt_(opt), lines_(path) {}

  uint64_t id(std::string_view s) {
    uint64_t x = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
    CHATTY_CHECK(ec == std::errc() && end == s.data() + s.size(), where() + "'" + std::string(s) + "' is not an id");
    return x;
  }
  // A weight as kept (an integer), or 0 where weights are not kept.
  uint64_t weight(std::string_view s, bool keep) {
    uint64_t whole = 0;
    if (const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), whole);
        ec == std::errc() && end == s.data() + s.size())
      return keep ? whole : 0;
    double x = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
    CHATTY_CHECK(ec == std::errc() && end == s.data() + s.size() && std::isfinite(x),
                 where() + "'" + std::string(s) + "' is not a weight");
    return keep ? uint64_t(x) : 0;
  }
  std::string where() const { return path_ + ":" + std::to_string(lines_.number) + ": second reading: "; }

  void edge(uint64_t u, uint64_t v, uint64_t w) { out_.edges.push_back({u, v, w}); }

  SecondReading read();

  // Each format's reading, which the format table names (read_again).
  void edge_list();
  void dimacs();
  void matrix_market();
  void metis();

 private:
  void finish(bool undirected);

  std::string path_;
  const LoadOptions& opt_;
  Lines lines_;
  SecondReading out_;
  std::string first_;  // the first non-blank line, read to tell the format
};

// GAP's edge lists (.el/.wel), files opening with a vertex count: positions
// (KONECT's 1-based); every other edge list: the ids that occur. SNAP's
// "# Undirected graph" / "# Directed graph" and KONECT's "% sym" / "% asym"
// before the first edge say the direction.
void SecondReader::edge_list() {
  out_.format = "edge list";
  int undirected = -1;
  bool konect = false, has_count = false, ended = false;
  uint64_t count = 0, nodes = 0;
  int columns = 0;  // of the first edge line
  auto take = [&](const std::vector<std::string_view>& f) {
    if (f.empty()) return;
    const char c0 = f[0][0];
    if (c0 == '#' || c0 == '%') {
      if (columns) return;  // headers come before the edges
      std::string body = lower(std::string(f[0].substr(1)));
      for (size_t k = 1; k < f.size(); ++k) {
        if (!body.empty()) body.push_back(' ');
        body += lower(std::string(f[k]));
      }
      const std::string word = body.substr(0, body.find(' '));
      if (c0 == '#' && undirected < 0 && body.rfind("undirected graph", 0) == 0) undirected = 1;
      if (c0 == '#' && undirected < 0 && body.rfind("directed graph", 0) == 0) undirected = 0;
      if (c0 == '#' && word == "nodes:") nodes = std::strtoull(body.c_str() + 6, nullptr, 10);
      if (c0 == '%' && lines_.number == 1 && (word == "sym" || word == "asym"))
        konect = true, undirected = word == "sym";
      return;
    }
    CHATTY_CHECK(!ended, where() + "a line after the end marker '-1'");
    if (f.size() == 1 && f[0] == "-1") {  // a trailing end marker, as some GPU graph systems write
      ended = true;
      return;
    }
    if (!columns && f.size() == 1 && !has_count && !konect) {
      has_count = true, count = id(f[0]);
      return;
    }
    if (!columns) columns = int(f.size());
    const bool has_w = columns >= 3;
    const bool keep = has_w && opt_.weights == WeightUse::kNeeded;
    out_.weighted = keep;
    CHATTY_CHECK(f.size() >= 2 && (konect || f.size() == size_t(has_w ? 3 : 2)), where() + "not 'u v [w]'");
    edge(id(f[0]), id(f[1]), has_w ? weight(f[2], keep) : 0);
  };
  take(fields(first_));
  for (std::string line; lines_.next(line);) take(fields(line));
  const std::string ext = ext_of(path_);
  const bool positions =
      opt_.ids == IdChoice::kPositions || (opt_.ids == IdChoice::kAuto && (has_count || ext == "el" || ext == "wel"));
  if (positions) {
    const uint64_t base = konect ? 1 : 0;
    uint64_t top = 0;
    for (const ReadEdge& e : out_.edges) top = std::max({top, e.u, e.v});
    uint64_t n = top + 1 - base;
    if (has_count)
      n = count;
    else if (nodes > n)
      n = nodes;
    out_.ids.resize(n);
    for (uint64_t k = 0; k < n; ++k) out_.ids[k] = k + base;
  } else {
    for (const ReadEdge& e : out_.edges) out_.ids.push_back(e.u), out_.ids.push_back(e.v);
  }
  finish(undirected == 1);
}

// "p sp N M", then "a u v w" (1-based); "c" comments, among them this
// project's "c undirected graph" and "c unweighted graph" marks.
void SecondReader::dimacs() {
  out_.format = "DIMACS";
  bool undirected = false, unit = false;
  uint64_t n = 0;
  std::string line = first_;
  do {
    const std::vector<std::string_view> f = fields(line);
    if (f.empty()) continue;
    if (f[0] == "c") {
      undirected = undirected || line.rfind("c undirected graph", 0) == 0;
      unit = unit || line.rfind("c unweighted graph", 0) == 0;
    } else if (f[0] == "p") {
      CHATTY_CHECK(f.size() == 4, where() + "not 'p sp N M'");
      n = id(f[2]);
    } else {
      CHATTY_CHECK(f[0] == "a" && f.size() == 4, where() + "not 'a u v w'");
      const bool keep = opt_.weights == WeightUse::kNeeded && !unit;
      out_.weighted = keep;
      edge(id(f[1]), id(f[2]), weight(f[3], keep));
    }
  } while (lines_.next(line));
  for (uint64_t k = 1; k <= n; ++k) out_.ids.push_back(k);
  finish(undirected);
}

// The banner, '%' comments, "rows cols entries", then "i j [value]"
// (1-based); vertices 1..max(rows, cols); "symmetric" is undirected.
void SecondReader::matrix_market() {
  out_.format = "Matrix Market";
  const std::string head = lower(first_);
  const std::vector<std::string_view> banner = fields(head);
  CHATTY_CHECK(banner.size() >= 5, where() + "a short banner");
  const bool symmetric = banner[4] == "symmetric", pattern = banner[3] == "pattern";
  const bool keep = !pattern && opt_.weights == WeightUse::kNeeded;
  out_.weighted = keep;
  uint64_t n = 0;
  bool sized = false;
  std::string line;
  while (lines_.next(line)) {
    const std::vector<std::string_view> f = fields(line);
    if (blank_or(f, '%')) continue;
    if (!sized) {
      CHATTY_CHECK(f.size() == 3, where() + "not 'rows cols entries'");
      n = std::max(id(f[0]), id(f[1])), sized = true;
      continue;
    }
    CHATTY_CHECK(f.size() == (pattern ? 2u : 3u), where() + "not 'i j [value]'");
    edge(id(f[0]), id(f[1]), pattern ? 0 : weight(f[2], keep));
  }
  for (uint64_t k = 1; k <= n; ++k) out_.ids.push_back(k);
  finish(symmetric);
}

// "n m [fmt [ncon]]", then line i lists vertex i's neighbours (1-based),
// ncon vertex weights first when fmt's middle digit is 1, an edge weight
// after each neighbour when its last digit is 1. Undirected when the lines
// list 2m neighbours.
void SecondReader::metis() {
  // Its header is the first line that is not a comment.
  while (!first_.empty() && fields(first_)[0][0] == '%' && lines_.next(first_)) {
  }
  out_.format = "METIS";
  const std::vector<std::string_view> h = fields(first_);
  CHATTY_CHECK(h.size() >= 2, where() + "not 'n m [fmt [ncon]]'");
  const uint64_t n = id(h[0]), m = id(h[1]);
  uint64_t fmt = h.size() >= 3 ? id(h[2]) : 0;
  if (fmt == 100) fmt = 0;
  const uint64_t skip = fmt / 10 % 10 == 1 ? (h.size() >= 4 ? id(h[3]) : 1) : 0;
  const bool has_w = fmt % 10 == 1, keep = has_w && opt_.weights == WeightUse::kNeeded;
  out_.weighted = keep;
  uint64_t u = 0;
  std::string line;
  while (lines_.next(line)) {
    const std::vector<std::string_view> f = fields(line);
    if (!f.empty() && f[0][0] == '%') continue;
    ++u;
    if (u > n) continue;
    const size_t step = has_w ? 2 : 1;
    CHATTY_CHECK(f.size() >= skip && (f.size() - skip) % step == 0, where() + "a ragged neighbour list");
    for (size_t k = skip; k < f.size(); k += step) edge(u, id(f[k]), has_w ? weight(f[k + 1], keep) : 0);
  }
  for (uint64_t k = 1; k <= n; ++k) out_.ids.push_back(k);
  finish(out_.edges.size() == 2 * m);
}

// The options on the edges read: symmetrize, drop self-loops, keep the
// lightest of parallel edges; the ids ascending and unique.
void SecondReader::finish(bool undirected) {
  std::vector<ReadEdge>& e = out_.edges;
  out_.directed = !(undirected || opt_.build.symmetrize);
  if (!out_.directed) {
    const size_t m = e.size();
    for (size_t k = 0; k < m; ++k) e.push_back({e[k].v, e[k].u, e[k].w});
  }
  if (opt_.build.drop_self_loops)
    e.erase(std::remove_if(e.begin(), e.end(), [](const ReadEdge& x) { return x.u == x.v; }), e.end());
  __gnu_parallel::sort(e.begin(), e.end());
  if (opt_.build.dedupe)  // sorted by weight within a pair: the first is the lightest
    e.erase(
        std::unique(e.begin(), e.end(), [](const ReadEdge& a, const ReadEdge& b) { return a.u == b.u && a.v == b.v; }),
        e.end());
  __gnu_parallel::sort(out_.ids.begin(), out_.ids.end());
  out_.ids.erase(std::unique(out_.ids.begin(), out_.ids.end()), out_.ids.end());
}

SecondReading SecondReader::read() {
  std::string line;
  while (lines_.next(line))
    if (!fields(line).empty()) break;
  first_ = line;
  // Its own rules for what the file is (not the loaders' sniffing), then
  // the format's own reading from the table.
  Format f = opt_.format;
  if (!f) {
    const std::string head = lower(first_);
    const std::vector<std::string_view> w = fields(head);
    const std::string ext = ext_of(path_);
    if (head.rfind("%%matrixmarket", 0) == 0)
      f = find_format_named("mtx");
    else if (!w.empty() && w[0] == "p")
      f = find_format_named("gr");
    else if (!(f = find_format_of_extension(ext)) || f->magic)
      f = find_format_named("el");
  }
  CHATTY_CHECK(f && f->read_again, where() + std::string(f ? f->article : "this file") + " is not read twice");
  f->read_again(*this);
  return std::move(out_);
}

namespace {

std::string show_edge(uint64_t u, uint64_t v) { return std::to_string(u) + " -> " + std::to_string(v); }

}  // namespace

bool can_read_again(const std::string& what, std::string* why) {
  auto no = [&](const char* because) {
    if (why) *why = because;
    return false;
  };
  if (what == "-") return no("standard input cannot be read twice");
  if (what.find(':') != std::string::npos && what.find('/') == std::string::npos && ::access(what.c_str(), R_OK) != 0)
    return no("a generated graph has no file");
  if (ext_of(what) == "cgr") return no("a .cgr is this project's own binary layout, not a text format");
  if (::access(what.c_str(), R_OK) != 0) return no("not a readable file");
  return true;
}

SecondReading read_again(const std::string& path, const LoadOptions& opt) { return SecondReader(path, opt).read(); }

void reread_edge_list(SecondReader& r) { r.edge_list(); }
void reread_dimacs(SecondReader& r) { r.dimacs(); }
void reread_matrix_market(SecondReader& r) { r.matrix_market(); }
void reread_metis(SecondReader& r) { r.metis(); }

std::string compare_with_reading(const Graph& g, const VertexIds& ids, const SecondReading& r) {
  const vid_t n = g.num_vertices();
  if (g.directed() != r.directed)
    return std::string("the graph is ") + (g.directed() ? "directed" : "undirected") + ", the file read as " +
           (r.directed ? "directed" : "undirected");
  for (vid_t v = 0; v < std::min<uint64_t>(n, r.ids.size()); ++v)
    if (ids.of(v) != r.ids[v])
      return "vertex " + std::to_string(ids.of(v)) + " is not in the file, which has vertex " +
             std::to_string(r.ids[v]) + " in its place (" + std::to_string(r.ids.size()) + " vertices)";
  if (n != r.ids.size())
    return std::to_string(n) + " vertices, the file has " + std::to_string(r.ids.size()) + " (" + r.format + ")";
  const Csr& c = g.out();
  const bool weights = r.weighted && g.weighted();
  std::vector<ReadEdge> row;
  size_t at = 0;
  for (vid_t u = 0; u < n; ++u) {
    row.clear();
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
      row.push_back({ids.of(u), ids.of(c.targets[e]), weights ? uint64_t(c.weights[e]) : 0});
    std::sort(row.begin(), row.end());
    for (const ReadEdge& e : row) {
      const ReadEdge* f = at < r.edges.size() ? &r.edges[at] : nullptr;
      if (!f || f->u > e.u || (f->u == e.u && f->v > e.v))
        return "the graph's edge " + show_edge(e.u, e.v) + " is not in the file";
      if (f->u < e.u || f->v < e.v) return "the file's edge " + show_edge(f->u, f->v) + " is not in the graph";
      if (weights && f->w != e.w)
        return "edge " + show_edge(e.u, e.v) + " has weight " + std::to_string(e.w) + ", the file " +
               std::to_string(f->w);
      ++at;
    }
  }
  if (at < r.edges.size()) return "the file's edge " + show_edge(r.edges[at].u, r.edges[at].v) + " is not in the graph";
  return "";
}

}  // namespace chatty
