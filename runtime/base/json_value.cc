#include "runtime/base/json_value.h"

#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>

#include "runtime/base/status.h"

namespace chatty {

JsonValue::JsonValue(float x) : kind_(Kind::kNumber), number_(x) {
  if (!std::isfinite(x)) return;
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, x);
  std::from_chars(b, r.ptr, number_);
}
namespace {

const char* kind_name(JsonValue::Kind k) {
  static const char* const kNames[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
  return kNames[int(k)];
}

[[noreturn]] void wrong_kind(const std::string& what, const char* want, JsonValue::Kind got) {
  throw Error(what + " is " + kind_name(got) + ", not " + want);
}

void append_utf8(std::string& out, uint32_t c) {
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xF0 | (c >> 18));
    out += char(0x80 | ((c >> 12) & 0x3F));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
}

void dump_string(std::string& out, const std::string& s) {
  out += '"';
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      out += b;
    } else {
      out += ch;
    }
  }
  out += '"';
}

void dump_number(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  char b[32];
  // Whole numbers (counts, indices, byte sizes) print as integers; -0 keeps
  // its sign as a double.
  const bool whole = x == std::floor(x) && std::fabs(x) < 9007199254740992.0 && !(x == 0 && std::signbit(x));
  const auto r = whole ? std::to_chars(b, b + sizeof b, int64_t(x)) : std::to_chars(b, b + sizeof b, x);
  out.append(b, r.ptr);
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  JsonValue document() {
    JsonValue v = value(0);
    skip_space();
    if (i_ != s_.size()) fail("text after the document");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 512;

  [[noreturn]] void fail(const std::string& why) const { throw Error("at byte " + std::to_string(i_) + ": " + why); }

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }

  bool take(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }

  void literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) fail("unknown literal");
    i_ += word.size();
  }

  JsonValue value(int depth) {
    skip_space();
    if (i_ == s_.size()) fail("unexpected end of text");
    // `depth` arrays and objects enclose this value.
    if ((s_[i_] == '{' || s_[i_] == '[') && depth >= kMaxDepth) fail("nested deeper than 512");
    switch (s_[i_]) {
      case '{': return object(depth);
      case '[': return array(depth);
      case '"': return JsonValue(string());
      case 't': literal("true"); return JsonValue(true);
      case 'f': literal("false"); return JsonValue(false);
      case 'n': literal("null"); return JsonValue();
      default: return number();
    }
  }

  JsonValue object(int depth) {
    ++i_;
    JsonValue o = JsonValue::object();
    if (take('}')) return o;
    do {
      skip_space();
      if (i_ == s_.size() || s_[i_] != '"') fail("expected a member name");
      std::string key = string();
      expect(':');
      o.set(key, value(depth + 1));
    } while (take(','));
    expect('}');
    return o;
  }

  JsonValue array(int depth) {
    ++i_;
    JsonValue a = JsonValue::array();
    if (take(']')) return a;
    do a.push(value(depth + 1));
    while (take(','));
    expect(']');
    return a;
  }

  uint32_t hex4() {
    if (s_.size() - i_ < 4) fail("short \\u escape");
    uint32_t c = 0;
    const auto r = std::from_chars(s_.data() + i_, s_.data() + i_ + 4, c, 16);
    if (r.ptr != s_.data() + i_ + 4) fail("bad \\u escape");
    i_ += 4;
    return c;
  }

  std::string string() {
    ++i_;  // the opening quote
    std::string out;
    while (true) {
      if (i_ == s_.size()) fail("unterminated string");
      const char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ == s_.size()) fail("unterminated string");
      const char e = s_[i_++];
      switch (e) {
        case '"':
        case '\\':
        case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t c1 = hex4();
          if (c1 >= 0xD800 && c1 < 0xDC00) {  // a surrogate pair's first half
            if (s_.substr(i_, 2) != "\\u") fail("lone surrogate");
            i_ += 2;
            const uint32_t c2 = hex4();
            if (c2 < 0xDC00 || c2 >= 0xE000) fail("lone surrogate");
            c1 = 0x10000 + ((c1 - 0xD800) << 10) + (c2 - 0xDC00);
          } else if (c1 >= 0xDC00 && c1 < 0xE000) {
            fail("lone surrogate");
          }
          append_utf8(out, c1);
          break;
        }
        default: fail("bad escape");
      }
    }
  }

  JsonValue number() {
    // JSON's grammar, stricter than from_chars: no '+', no leading zeros,
    // digits on both sides of the point.
    const size_t start = i_;
    auto digits = [&] {
      const size_t from = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ - from;
    };
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    const size_t first = i_;
    if (!digits()) fail("expected a value");
    if (i_ - first > 1 && s_[first] == '0') fail("leading zero in a number");
    const size_t whole_end = i_;
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (!digits()) fail("expected digits after the decimal point");
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (!digits()) fail("expected digits in the exponent");
    }
    if (whole_end == i_) {  // an integer literal: exact where it fits 64 bits
      uint64_t m = 0;
      const auto r = std::from_chars(s_.data() + first, s_.data() + i_, m);
      const bool negative = first > start;
      if (r.ec == std::errc() && !(negative && m == 0)) {  // -0 stays a double, with its sign
        if (!negative) return JsonValue(m);
        if (m <= uint64_t(INT64_MAX) + 1) return JsonValue(int64_t(uint64_t(0) - m));
      }
    }
    double x = 0;
    const auto r = std::from_chars(s_.data() + start, s_.data() + i_, x);
    if (r.ec != std::errc()) fail("number out of range");
    return JsonValue(x);
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

bool JsonValue::as_bool(const std::string& what) const {
  if (kind_ != Kind::kBool) wrong_kind(what, "a boolean", kind_);
  return number_ != 0;
}

double JsonValue::as_number(const std::string& what) const {
  if (kind_ != Kind::kNumber) wrong_kind(what, "a number", kind_);
  return number_;
}

int64_t JsonValue::as_int(const std::string& what, int64_t lo, int64_t hi) const {
  const double x = as_number(what);
  if (exact_) {
    const bool fits = negative_ ? magnitude_ <= uint64_t(INT64_MAX) + 1 : magnitude_ <= uint64_t(INT64_MAX);
    const int64_t v = negative_ ? int64_t(uint64_t(0) - magnitude_) : int64_t(magnitude_);
    CHATTY_CHECK(fits && v >= lo && v <= hi, what + " is " + (negative_ ? "-" : "") + std::to_string(magnitude_) +
                                                 ", not a whole number in [" + std::to_string(lo) + ", " +
                                                 std::to_string(hi) + "]");
    return v;
  }
  // 2^63 is INT64_MAX rounded up to a double: the bound is exclusive there.
  CHATTY_CHECK(x == std::floor(x) && x >= double(lo) && x <= double(hi) && x < 0x1p63,
               what + " is " + std::to_string(x) + ", not a whole number in [" + std::to_string(lo) + ", " +
                   std::to_string(hi) + "]");
  return int64_t(x);
}

const std::string& JsonValue::as_string(const std::string& what) const {
  if (kind_ != Kind::kString) wrong_kind(what, "a string", kind_);
  return string_;
}

const std::vector<JsonValue>& JsonValue::items(const std::string& what) const {
  if (kind_ == Kind::kNull) return items_;  // empty
  if (kind_ != Kind::kArray) wrong_kind(what, "an array", kind_);
  return items_;
}

const JsonValue::Members& JsonValue::members(const std::string& what) const {
  if (kind_ != Kind::kObject) wrong_kind(what, "an object", kind_);
  return members_;
}

const JsonValue* JsonValue::find(std::string_view key) const {
  if (kind_ != Kind::kObject) return nullptr;
  for (const auto& [k, v] : members_)
    if (k == key) return &v;
  return nullptr;
}

double JsonValue::get(std::string_view key, double fallback) const {
  const JsonValue* v = find(key);
  return v && !v->is_null() ? v->as_number(std::string(key)) : fallback;
}

int64_t JsonValue::get(std::string_view key, int64_t fallback) const {
  const JsonValue* v = find(key);
  return v && !v->is_null() ? v->as_int(std::string(key)) : fallback;
}

int JsonValue::get(std::string_view key, int fallback) const {
  const JsonValue* v = find(key);
  return v && !v->is_null() ? int(v->as_int(std::string(key), INT_MIN, INT_MAX)) : fallback;
}

bool JsonValue::get(std::string_view key, bool fallback) const {
  const JsonValue* v = find(key);
  return v && !v->is_null() ? v->as_bool(std::string(key)) : fallback;
}

std::string JsonValue::get(std::string_view key, const char* fallback) const {
  const JsonValue* v = find(key);
  return v && !v->is_null() ? v->as_string(std::string(key)) : fallback;
}

JsonValue& JsonValue::set(std::string_view key, JsonValue v) {
  if (kind_ == Kind::kNull) kind_ = Kind::kObject;
  CHATTY_CHECK(kind_ == Kind::kObject, "JSON: set on " + std::string(kind_name(kind_)));
  for (auto& [k, old] : members_)
    if (k == key) return old = std::move(v);
  members_.emplace_back(std::string(key), std::move(v));
  return members_.back().second;
}

JsonValue& JsonValue::push(JsonValue v) {
  if (kind_ == Kind::kNull) kind_ = Kind::kArray;
  CHATTY_CHECK(kind_ == Kind::kArray, "JSON: push on " + std::string(kind_name(kind_)));
  items_.push_back(std::move(v));
  return items_.back();
}

std::string JsonValue::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

void JsonValue::dump_to(std::string& out, int indent, int depth) const {
  auto newline = [&](int d) {
    if (indent < 0) return;
    out += '\n';
    out.append(size_t(indent * d), ' ');
  };
  switch (kind_) {
    case Kind::kNull: out += "null"; return;
    case Kind::kBool: out += number_ != 0 ? "true" : "false"; return;
    case Kind::kNumber:
      if (exact_) {
        char b[24];
        if (negative_) out += '-';
        out.append(b, std::to_chars(b, b + sizeof b, magnitude_).ptr);
      } else {
        dump_number(out, number_);
      }
      return;
    case Kind::kString: dump_string(out, string_); return;
    case Kind::kArray:
      out += '[';
      for (size_t i = 0; i < items_.size(); ++i) {
        if (i) out += ',';
        newline(depth + 1);
        items_[i].dump_to(out, indent, depth + 1);
      }
      if (!items_.empty()) newline(depth);
      out += ']';
      return;
    case Kind::kObject:
      out += '{';
      for (size_t i = 0; i < members_.size(); ++i) {
        if (i) out += ',';
        newline(depth + 1);
        dump_string(out, members_[i].first);
        out += indent < 0 ? ":" : ": ";
        members_[i].second.dump_to(out, indent, depth + 1);
      }
      if (!members_.empty()) newline(depth);
      out += '}';
      return;
  }
}

JsonValue parse_json(std::string_view text) { return Parser(text).document(); }

}  // namespace chatty
