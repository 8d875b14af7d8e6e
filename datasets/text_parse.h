// Parallel line-oriented parsing of text blocks (a mapped file, or the
// blocks of a stream). Each block is split into one chunk per thread at line
// boundaries; each thread parses its lines into its own EdgeList. Errors carry the global line number, computed after
// the fact from per-chunk line counts, so the earliest bad line is reported.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "datasets/progress.h"
#include "datasets/text_source.h"
#include "runtime/base/buffer.h"
#include "runtime/base/status.h"
#include "runtime/graph/graph_builder.h"

namespace chatty {

// Number tokens. Fields are separated by spaces, tabs or commas.
enum class NumStatus { kOk, kMissing, kNegative, kNotNumber, kOverflow };

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == ','; }

inline const char* skip_space(const char* p, const char* e) {
  while (p < e && is_space(*p)) ++p;
  return p;
}

// Parses an unsigned decimal integer no larger than `max`, advancing p.
inline NumStatus parse_uint(const char*& p, const char* e, uint64_t max, uint64_t& out) {
  p = skip_space(p, e);
  if (p == e) return NumStatus::kMissing;
  if (*p == '-') return NumStatus::kNegative;
  if (*p == '+') ++p;
  if (p == e || *p < '0' || *p > '9') return NumStatus::kNotNumber;
  uint64_t v = 0;
  while (p < e && *p >= '0' && *p <= '9') {
    uint64_t d = uint64_t(*p - '0');
    if (v > (max - d) / 10) return NumStatus::kOverflow;
    v = v * 10 + d;
    ++p;
  }
  if (p < e && !is_space(*p)) return NumStatus::kNotNumber;
  out = v;
  return NumStatus::kOk;
}

// Describes a failed number parse of field `what` for an error message.
inline const char* describe(NumStatus s) {
  switch (s) {
    case NumStatus::kMissing: return "missing";
    case NumStatus::kNegative: return "negative";
    case NumStatus::kNotNumber: return "not a non-negative integer";
    case NumStatus::kOverflow: return "too large";
    default: return "ok";
  }
}

// A weight field. A kept weight must be a non-negative integer up to
// UINT32_MAX, written as an integer or as a real of integral value ("3.0",
// "1e3"); an ignored weight may be any number. Returns "" or the problem.
inline std::string parse_weight(const char*& p, const char* e, bool keep, uint64_t& out) {
  p = skip_space(p, e);
  if (p == e) return "missing weight";
  const char* q = p;
  if (parse_uint(q, e, UINT32_MAX, out) == NumStatus::kOk) {
    p = q;
    return {};
  }
  const char* te = p;
  while (te < e && !is_space(*te)) ++te;
  const std::string tok(p, te);
  p = te;
  char* end = nullptr;
  const double x = std::strtod(tok.c_str(), &end);
  if (*end != '\0' || !std::isfinite(x)) return "weight '" + tok + "' is not a number";
  out = 0;
  if (!keep) return {};
  if (x < 0) return "negative weight " + tok + " (SSSP needs weights >= 0)";
  if (x != std::floor(x))
    return "weight " + tok +
           " is not an integer: ChattyGraph keeps 32-bit integer weights (what SSSP uses) and never rounds them; "
           "scale the weights to integers (BFS, PageRank and WCC ignore weights and load this file)";
  if (x > double(UINT32_MAX)) return "weight " + tok + " too large (max 4294967295)";
  out = uint64_t(x);
  return {};
}

// Edges whose ids are kept as written (up to 64 bits), for inputs whose
// vertices are the ids that occur: compacted after the parse.
struct WideEdgeList {
  std::vector<uint64_t> src, dst;
  std::vector<weight_t> weight;
  size_t size() const { return src.size(); }
};

// The edge container a line parser fills: its `List`, else EdgeList.
template <typename P, typename = void>
struct ListOf {
  using type = EdgeList;
};
template <typename P>
struct ListOf<P, std::void_t<typename P::List>> {
  using type = typename P::List;
};

// Per-thread results of the body parse.
template <typename List>
struct BasicParsedBody {
  std::vector<List> lists;
  uint64_t max_id = 0;   // largest vertex id seen (after any 1-based shift)
  uint64_t records = 0;  // data lines (edges as written, before symmetrize)
  uint64_t lines = 0;    // lines parsed
  bool any = false;      // at least one edge

  void append(BasicParsedBody&& b) {
    for (List& l : b.lists) lists.push_back(std::move(l));
    max_id = std::max(max_id, b.max_id);
    records += b.records;
    lines += b.lines;
    any = any || b.any;
  }
};
using ParsedBody = BasicParsedBody<EdgeList>;

// Parser concept: `std::string parse(const char* b, const char* e, EdgeList& out)`
// for one line without its newline; returns an error message or "" (an empty
// message means the line was fine, data or comment). It may keep per-thread
// state, so one copy is made per thread.
// Parses bytes [begin, end) of base in parallel; `name` and `first_line`
// (the line number of `begin`) place errors. `mapped`: base is a map of
// the file, whose pages each thread gives back behind it (they would
// otherwise stay in the process's memory beside the edges they became).
template <typename LineParser, typename List = typename ListOf<LineParser>::type>
BasicParsedBody<List> parse_span(const char* base, size_t begin, size_t end, const std::string& name,
                                 uint64_t first_line, const LineParser& proto, Progress& progress,
                                 bool mapped = false) {
  const size_t size = std::max(begin, end);
  // Small spans are not worth a team: a tiny graph loads on one thread.
  const int threads = size - begin < (size_t(1) << 16) ? 1 : omp_get_max_threads();
  std::vector<size_t> cut(size_t(threads) + 1, size);
  cut[0] = begin;
  for (int t = 1; t < threads; ++t) {
    size_t c = begin + (size - begin) * size_t(t) / size_t(threads);
    c = std::max(c, cut[t - 1]);
    while (c > begin && c < size && base[c - 1] != '\n') ++c;  // chunks start on a line start
    cut[t] = c;
  }
  BasicParsedBody<List> out;
  out.lists.resize(size_t(threads));
  std::vector<uint64_t> lines(size_t(threads), 0), err_line(size_t(threads), 0);
  std::vector<std::string> err{size_t(threads)};
  std::vector<uint64_t> records(size_t(threads), 0), max_id(size_t(threads), 0);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    LineParser parser = proto;
    List& el = out.lists[size_t(t)];
    const char* p = base + cut[size_t(t)];
    const char* end_t = base + cut[size_t(t) + 1];
    const char* last_report = p;
    const char* released = p;
    // Room for the shortest lines ("0 1"): untouched room costs address
    // space only, and the lists never grow by copying.
    if constexpr (requires { el.src.reserve(1); })
      el.src.reserve(size_t(end_t - p) / 4 + 1), el.dst.reserve(size_t(end_t - p) / 4 + 1);
    uint64_t n_lines = 0;
    while (p < end_t) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end_t - p)));
      const char* le = nl ? nl : end_t;
      std::string msg = parser.parse(p, le, el);
      if (!msg.empty()) {
        err[size_t(t)] = std::move(msg);
        err_line[size_t(t)] = n_lines;
        break;
      }
      ++n_lines;
      p = nl ? nl + 1 : end_t;
      if (p - last_report > (1 << 22)) {
        progress.add(uint64_t(p - last_report));
        last_report = p;
        if (mapped) released = release_file_pages(released, p);
      }
    }
    lines[size_t(t)] = n_lines;
    records[size_t(t)] = el.size();
    uint64_t mx = 0;
    for (size_t i = 0; i < el.size(); ++i) mx = std::max<uint64_t>(mx, std::max(el.src[i], el.dst[i]));
    max_id[size_t(t)] = mx;
  }
  uint64_t line_no = first_line;
  for (int t = 0; t < threads; ++t) {
    if (!err[size_t(t)].empty())
      throw Error(name + ":" + std::to_string(line_no + err_line[size_t(t)]) + ": " + err[size_t(t)]);
    line_no += lines[size_t(t)];
  }
  for (int t = 0; t < threads; ++t) {
    out.records += records[size_t(t)];
    out.max_id = std::max(out.max_id, max_id[size_t(t)]);
    out.lines += lines[size_t(t)];
  }
  out.any = out.records > 0;
  return out;
}

// Where a trailing end marker line "-1" (a layout some GPU graph systems
// use) starts in [begin, end), or end when there is none.
inline size_t end_marker_at(const char* base, size_t begin, size_t end) {
  size_t e = end;
  while (e > begin && (is_space(base[e - 1]) || base[e - 1] == '\n')) --e;
  size_t ls = e;
  while (ls > begin && base[ls - 1] != '\n') --ls;
  return std::string_view(base + ls, e - ls) == "-1" ? ls : end;
}

// Parses every block of src, the first from byte `begin` on (after the
// header the loader read from first()); `end_marker` drops a trailing "-1".
template <typename LineParser, typename List = typename ListOf<LineParser>::type>
BasicParsedBody<List> parse_text(TextSource& src, size_t begin, uint64_t first_line, const LineParser& proto,
                                 bool end_marker = false) {
  BasicParsedBody<List> all;
  Progress progress("loading " + src.path(), src.mapped() ? src.first().size - begin : 0);
  TextBlock b;
  uint64_t line_no = first_line;
  for (bool first = true; src.next(b); first = false) {
    const size_t from = first ? std::min(begin, b.size) : 0;
    const size_t to = end_marker && b.last ? end_marker_at(b.data, from, b.size) : b.size;
    BasicParsedBody<List> part = parse_span(b.data, from, to, src.path(), line_no, proto, progress, src.mapped());
    line_no += part.lines;
    if (!src.mapped()) progress.add(b.size - from);
    all.append(std::move(part));
  }
  return all;
}

// Reads the header lines of a block one at a time.
struct LineCursor {
  const char* base;
  size_t size;
  size_t pos = 0;
  uint64_t line_no = 0;  // of the line last returned

  explicit LineCursor(const TextBlock& b) : base(b.data), size(b.size) {}
  bool done() const { return pos >= size; }
  std::string next() {
    ++line_no;
    if (pos >= size) return {};
    const char* b = base + pos;
    const char* e = base + size;
    const char* nl = static_cast<const char*>(std::memchr(b, '\n', size_t(e - b)));
    const char* le = nl ? nl : e;
    pos = size_t((nl ? nl + 1 : e) - base);
    std::string s(b, le);
    while (!s.empty() && s.back() == '\r') s.pop_back();
    return s;
  }
};

}  // namespace chatty
