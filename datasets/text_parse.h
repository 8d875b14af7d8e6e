// Parallel line-oriented parsing of a mapped text file. The body is split
// into one chunk per thread at line boundaries; each thread parses its lines
// into its own EdgeList. Errors carry the global line number, computed after
// the fact from per-chunk line counts, so the earliest bad line is reported.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "datasets/mapped_file.h"
#include "datasets/progress.h"
#include "runtime/graph_builder.h"
#include "runtime/status.h"

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

// Per-thread results of the body parse.
struct ParsedBody {
  std::vector<EdgeList> lists;
  uint64_t max_id = 0;   // largest vertex id seen (after any 1-based shift)
  uint64_t records = 0;  // data lines (edges as written, before symmetrize)
  bool any = false;      // at least one edge
};

// Parser concept: `std::string parse(const char* b, const char* e, EdgeList& out)`
// for one line without its newline; returns an error message or "" (an empty
// message means the line was fine, data or comment). `bool weighted()` says
// whether the EdgeList gets weights. It may keep per-thread state, so one
// copy is made per thread.
// Parses bytes [begin, end) of f (end defaults to the end of the file).
template <typename LineParser>
ParsedBody parse_body(const MappedFile& f, size_t begin, uint64_t first_line, const LineParser& proto,
                      size_t end_at = ~size_t(0)) {
  const char* base = f.data();
  const size_t size = std::max(begin, std::min(f.size(), end_at));
  const int threads = omp_get_max_threads();
  std::vector<size_t> cut(size_t(threads) + 1, size);
  cut[0] = begin;
  for (int t = 1; t < threads; ++t) {
    size_t c = begin + (size - begin) * size_t(t) / size_t(threads);
    c = std::max(c, cut[t - 1]);
    while (c > begin && c < size && base[c - 1] != '\n') ++c;  // chunks start on a line start
    cut[t] = c;
  }
  ParsedBody out;
  out.lists.resize(size_t(threads));
  std::vector<uint64_t> lines(size_t(threads), 0), err_line(size_t(threads), 0);
  std::vector<std::string> err{size_t(threads)};
  std::vector<uint64_t> records(size_t(threads), 0), max_id(size_t(threads), 0);
  Progress progress("loading " + f.path(), size - begin);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    LineParser parser = proto;
    EdgeList& el = out.lists[size_t(t)];
    const char* p = base + cut[size_t(t)];
    const char* end = base + cut[size_t(t) + 1];
    const char* last_report = p;
    uint64_t n_lines = 0;
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
      const char* le = nl ? nl : end;
      std::string msg = parser.parse(p, le, el);
      if (!msg.empty()) {
        err[size_t(t)] = std::move(msg);
        err_line[size_t(t)] = n_lines;
        break;
      }
      ++n_lines;
      p = nl ? nl + 1 : end;
      if (p - last_report > (1 << 22)) {
        progress.add(uint64_t(p - last_report));
        last_report = p;
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
      throw Error(f.path() + ":" + std::to_string(line_no + err_line[size_t(t)]) + ": " + err[size_t(t)]);
    line_no += lines[size_t(t)];
  }
  for (int t = 0; t < threads; ++t) {
    out.records += records[size_t(t)];
    out.max_id = std::max(out.max_id, max_id[size_t(t)]);
  }
  out.any = out.records > 0;
  return out;
}

// Reads the line starting at `pos`, advancing pos past its newline.
inline std::string next_line(const MappedFile& f, size_t& pos) {
  if (pos >= f.size()) {  // also an empty file, whose data() is null
    pos = f.size();
    return {};
  }
  const char* b = f.data() + pos;
  const char* e = f.data() + f.size();
  const char* nl = static_cast<const char*>(std::memchr(b, '\n', size_t(e - b)));
  const char* le = nl ? nl : e;
  pos = size_t((nl ? nl + 1 : e) - f.data());
  std::string s(b, le);
  while (!s.empty() && (s.back() == '\r')) s.pop_back();
  return s;
}

}  // namespace chatty
