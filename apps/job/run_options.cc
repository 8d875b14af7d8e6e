#include "apps/job/run_options.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "comm/transport_table.h"
#include "datasets/formats.h"
#include "runtime/base/status.h"

namespace chatty::job {

std::optional<uint64_t> parse_id(const std::string& text) {
  uint64_t x = 0;
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, x);
  if (text.empty() || r.ec != std::errc() || r.ptr != end) return std::nullopt;
  return x;
}

const char* graph_help() {
  // The formats' names and extensions come from their table (datasets/formats.h).
  static const std::string h = "input: a graph file (" + format_extensions() +
                               ", also gzip/zstd/bzip2), - for standard input, or a spec kron:SCALE[:EF], "
                               "urand:SCALE[:EF], grid:WxH, road:WxH";
  return h.c_str();
}

const char* format_help() {
  static const std::string h = "input format: auto (by content, else extension), " + format_names();
  return h.c_str();
}

namespace {

bool lower_equals(const std::string& a, const char* b) {
  size_t i = 0;
  for (; i < a.size() && b[i]; ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  return i == a.size() && !b[i];
}

// Each parse returns false for a text that is not a value of the type, as
// gflags reads them: bools as words or 0/1, whole numbers in decimal (or
// hexadecimal after 0x), unsigned ones without a sign.
bool parse_value(const std::string& t, bool& out) {
  for (const char* yes : {"true", "t", "yes", "y", "1"})
    if (lower_equals(t, yes)) return out = true, true;
  for (const char* no : {"false", "f", "no", "n", "0"})
    if (lower_equals(t, no)) return out = false, true;
  return false;
}

template <typename Int>
bool parse_whole(const std::string& t, Int& out) {
  if (t.empty() || std::isspace(static_cast<unsigned char>(t[0]))) return false;
  const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  char* end = nullptr;
  errno = 0;
  if constexpr (std::is_signed_v<Int>) {
    const long long x = std::strtoll(t.c_str(), &end, hex ? 16 : 10);
    if (errno || *end || x < std::numeric_limits<Int>::min() || x > std::numeric_limits<Int>::max()) return false;
    out = Int(x);
  } else {
    if (t[0] == '-' || t[0] == '+') return false;
    const unsigned long long x = std::strtoull(t.c_str(), &end, hex ? 16 : 10);
    if (errno || *end || x > std::numeric_limits<Int>::max()) return false;
    out = Int(x);
  }
  return true;
}
bool parse_value(const std::string& t, int32_t& out) { return parse_whole(t, out); }
bool parse_value(const std::string& t, uint32_t& out) { return parse_whole(t, out); }
bool parse_value(const std::string& t, uint64_t& out) { return parse_whole(t, out); }

bool parse_value(const std::string& t, double& out) {
  if (t.empty() || std::isspace(static_cast<unsigned char>(t[0]))) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtod(t.c_str(), &end);
  return !errno && !*end;
}

bool parse_value(const std::string& t, std::string& out) {
  out = t;
  return true;
}

std::string text_of(bool x) { return x ? "true" : "false"; }
std::string text_of(const std::string& x) { return x; }
std::string text_of(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}
template <typename Int>
std::string text_of(Int x) {
  return std::to_string(x);
}

struct OptionAccess {
  bool (*set)(RunOptions&, const std::string&);
  std::string (*text)(const RunOptions&);
};

// Parallel to run_option_table(): how each option is set and read.
const std::vector<OptionAccess>& accessors() {
  static const std::vector<OptionAccess> a = {
#define CHATTY_OPTION_ACCESS(type, name, value, scope, help)                   \
  {[](RunOptions& o, const std::string& t) { return parse_value(t, o.name); }, \
   [](const RunOptions& o) { return text_of(o.name); }},
      CHATTY_RUN_OPTIONS(CHATTY_OPTION_ACCESS)
#undef CHATTY_OPTION_ACCESS
  };
  return a;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

const std::vector<OptionInfo>& run_option_table() {
  static const std::vector<OptionInfo> t = {
#define CHATTY_OPTION_INFO(type, name, value, scope, help) {#name, #type, OptionScope::scope, help},
      CHATTY_RUN_OPTIONS(CHATTY_OPTION_INFO)
#undef CHATTY_OPTION_INFO
  };
  return t;
}

const OptionInfo* find_option(const std::string& name) {
  for (const OptionInfo& o : run_option_table())
    if (name == o.name) return &o;
  return nullptr;
}

std::string nearest_name(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  size_t best_d = ~size_t(0);
  for (const std::string& n : names) {
    const size_t d = edit_distance(word, n);
    if (d < best_d) best_d = d, best = n;
  }
  return best_d <= std::max<size_t>(2, word.size() / 3) ? best : "";
}

const char* option_takes(const std::string& type) {
  if (type == "bool") return "true or false";
  if (type == "int32") return "a whole number from -2147483648 to 2147483647";
  if (type == "uint32") return "a whole number from 0 to 4294967295";
  if (type == "int64") return "a whole number";
  if (type == "uint64") return "a whole number, 0 or more";
  if (type == "double") return "a number";
  return "a value";
}

void set_option(RunOptions& o, const std::string& name, const std::string& value, OptionScope scope) {
  const std::vector<OptionInfo>& table = run_option_table();
  const OptionInfo* info = find_option(name);
  if (!info) {
    std::vector<std::string> names;
    for (const OptionInfo& i : table) names.push_back(i.name);
    const std::string near = nearest_name(name, names);
    throw UsageError("unknown flag --" + name + (near.empty() ? "" : " (did you mean --" + near + "?)") +
                     "; `chatty help` lists the commands and their flags");
  }
  if (scope == OptionScope::kInput && info->scope != OptionScope::kInput)
    throw UsageError("--" + name + " does not apply to loading a graph (it is an option of a run)");
  if (!accessors()[size_t(info - table.data())].set(o, value))
    throw UsageError("--" + name + "=" + value + ": --" + name + " takes " + option_takes(info->type));
  o.given.insert(name);
}

RunOptions parse_options(const std::vector<std::string>& args, OptionScope scope) {
  RunOptions o;
  for (const std::string& a : args) {
    if (a.rfind("--", 0) != 0 || a.size() < 3) throw UsageError("'" + a + "' is not an option (--name=value)");
    const size_t eq = a.find('=');
    std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    std::string value = eq == std::string::npos ? "true" : a.substr(eq + 1);
    // --noFLAG turns a boolean off.
    if (eq == std::string::npos && !find_option(name) && name.rfind("no", 0) == 0) {
      const OptionInfo* off = find_option(name.substr(2));
      if (off && std::string(off->type) == "bool") name = name.substr(2), value = "false";
    }
    set_option(o, name, value, scope);
  }
  return o;
}

std::string option_text(const RunOptions& o, const std::string& name) {
  const OptionInfo* info = find_option(name);
  CHATTY_CHECK(info, "no option --" + name);
  return accessors()[size_t(info - run_option_table().data())].text(o);
}

LoadOptions load_options(const RunOptions& f) {
  LoadOptions o;
  o.format = parse_format(f.format);
  o.ids = parse_id_choice(f.ids);
  o.build.symmetrize = f.symmetrize || f.undirected;
  o.build.dedupe = f.dedupe;
  o.build.drop_self_loops = f.drop_self_loops;
  o.seed = f.seed;
  return o;
}

EngineOptions engine_options(const RunOptions& f) {
  EngineOptions o;
  o.threads = f.threads;
  o.direction = parse_direction(f.direction);
  CHATTY_CHECK(f.alpha > 0 && f.beta > 0, "--alpha and --beta must be positive");
  o.alpha = f.alpha;
  o.beta = f.beta;
  o.delta = f.delta;
  CHATTY_CHECK(f.tolerance > 0, "--tolerance must be positive");
  o.tolerance = f.tolerance;
  CHATTY_CHECK(f.max_iters > 0, "--max_iters must be at least 1");
  o.max_iters = f.max_iters;
  CHATTY_CHECK(f.damping > 0 && f.damping < 1, "--damping must be in (0, 1)");
  o.damping = f.damping;
  o.bc_scale = parse_bc_scale(f.bc_scale);
  CHATTY_CHECK(f.katz_alpha >= 0 && std::isfinite(f.katz_alpha), "--katz_alpha must be 0 (chosen) or positive");
  CHATTY_CHECK(std::isfinite(f.katz_beta), "--katz_beta must be a finite number");
  o.katz_alpha = f.katz_alpha, o.katz_beta = f.katz_beta, o.katz_normalized = f.katz_normalized;
  CHATTY_CHECK(f.resolution > 0 && std::isfinite(f.resolution), "--resolution must be a positive number");
  CHATTY_CHECK(f.threshold >= 0 && std::isfinite(f.threshold), "--threshold must be 0 or a positive number");
  o.resolution = f.resolution, o.threshold = f.threshold, o.max_level = f.max_level;
  o.distance_measure = parse_distance_measure(f.distance_measure);
  o.similarity = parse_similarity(f.similarity);
  o.passes = f.passes;
  o.keep_levels = f.keep_levels;
  CHATTY_CHECK(f.devices >= 1 && f.devices <= 1024, "--devices must be between 1 and 1024");
  o.devices = f.devices;
  o.comm = parse_comm(f.comm);
  o.exchange = parse_exchange(f.exchange);
  o.messages = parse_messages(f.messages);
  o.net = parse_net(f.net);
  o.ring_bytes = f.ring_bytes;
  CHATTY_CHECK(f.put_window_mb <= (uint64_t(1) << 30), "--put_window_mb must be 0..2^30");
  o.put_window_bytes = size_t(f.put_window_mb) << 20;
  o.batch_bytes = f.batch_bytes;
  CHATTY_CHECK(f.ring_lanes >= 1 && f.ring_lanes <= 64, "--ring_lanes must be 1..64");
  o.ring_lanes = f.ring_lanes;
  if (f.small_bytes != "auto" && f.small_bytes != "measure") {
    CHATTY_CHECK(!f.small_bytes.empty() && f.small_bytes.size() <= 10 &&
                     f.small_bytes.find_first_not_of("0123456789") == std::string::npos,
                 "--small_bytes must be auto, measure or a byte count (got '" + f.small_bytes + "')");
    o.small_bytes = std::stoull(f.small_bytes);
  }
  o.numa = f.numa;
  o.migrate = f.migrate;
  CHATTY_CHECK(f.migrate_block >= 1, "--migrate_block must be >= 1");
  o.migrate_block = f.migrate_block;
  o.migrate_threshold = f.migrate_threshold;
  o.migrate_cache_mb = f.migrate_cache_mb;
  o.straggler = parse_straggler(f.straggler);
  return o;
}

}  // namespace chatty::job
