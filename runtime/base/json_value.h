// A JSON document in memory: what chatty writes to its files (the topology
// and the ranks' switch-point cache) and reads back, and what tests read
// from `--json` reports. Objects keep their keys in insertion order, so a
// document dumps the same way it was built. Numbers are doubles, except
// that an integer (made from one, or read as a literal without a point or
// exponent that fits 64 bits) also keeps its exact value: a vertex id
// past 2^53 prints and reads back as itself.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chatty {

class JsonValue {
 public:
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  using Members = std::vector<std::pair<std::string, JsonValue>>;

  JsonValue() = default;  // null
  JsonValue(bool b) : kind_(Kind::kBool), number_(b) {}
  JsonValue(double x) : kind_(Kind::kNumber), number_(x) {}
  // The double nearest the float's shortest decimal, so that it dumps as
  // that decimal (0.023267422, not the float's exact 0.02326742187142372).
  JsonValue(float x);
  JsonValue(int x) : JsonValue(int64_t(x)) {}
  JsonValue(uint32_t x) : JsonValue(uint64_t(x)) {}
  JsonValue(int64_t x)
      : kind_(Kind::kNumber),
        number_(double(x)),
        exact_(true),
        negative_(x < 0),
        magnitude_(x < 0 ? uint64_t(0) - uint64_t(x) : uint64_t(x)) {}
  JsonValue(uint64_t x) : kind_(Kind::kNumber), number_(double(x)), exact_(true), magnitude_(x) {}
  JsonValue(std::string s) : kind_(Kind::kString), string_(std::move(s)) {}
  JsonValue(const char* s) : JsonValue(std::string(s)) {}
  static JsonValue array() { return JsonValue(Kind::kArray); }
  static JsonValue object() { return JsonValue(Kind::kObject); }
  template <typename T>
  static JsonValue array_of(const std::vector<T>& xs) {
    JsonValue a = array();
    for (const T& x : xs) a.push(JsonValue(x));
    return a;
  }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_number() const { return kind_ == Kind::kNumber; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_array() const { return kind_ == Kind::kArray; }
  bool is_object() const { return kind_ == Kind::kObject; }

  // Each throws chatty::Error naming the kind it found where another was
  // wanted; `what` names the value in that message.
  bool as_bool(const std::string& what = "value") const;
  double as_number(const std::string& what = "value") const;
  // A number that is a whole value in [lo, hi] (exact where it was made
  // or read as an integer).
  int64_t as_int(const std::string& what = "value", int64_t lo = INT64_MIN, int64_t hi = INT64_MAX) const;
  const std::string& as_string(const std::string& what = "value") const;
  // A number made or read as an integer: its exact value is
  // (negative() ? -1 : 1) * magnitude(), even past 2^53.
  bool is_integer() const { return kind_ == Kind::kNumber && exact_; }
  bool negative() const { return negative_; }
  uint64_t magnitude() const { return magnitude_; }
  // An array's items; none for null.
  const std::vector<JsonValue>& items(const std::string& what = "value") const;
  const Members& members(const std::string& what = "value") const;  // an object's

  // An object's member, or null when this is not an object or lacks `key`.
  const JsonValue* find(std::string_view key) const;
  // The member's value converted, or `fallback` where it is absent or null.
  double get(std::string_view key, double fallback) const;
  int64_t get(std::string_view key, int64_t fallback) const;
  int get(std::string_view key, int fallback) const;
  bool get(std::string_view key, bool fallback) const;
  std::string get(std::string_view key, const char* fallback) const;

  // Building: set replaces a member of that key or appends one; push appends
  // to an array. Both turn a null into the container they need, and return
  // the value in place, which stays valid until the next set or push on
  // this same value.
  JsonValue& set(std::string_view key, JsonValue v);
  JsonValue& push(JsonValue v);

  // Compact with indent < 0; else one member or item per line, indented by
  // `indent` spaces a level. Numbers print as the shortest text that reads
  // back to the same double; non-finite ones as null.
  std::string dump(int indent = -1) const;

 private:
  explicit JsonValue(Kind k) : kind_(k) {}
  void dump_to(std::string& out, int indent, int depth) const;

  Kind kind_ = Kind::kNull;
  double number_ = 0;
  bool exact_ = false;  // an integer: -magnitude_ when negative_, else magnitude_
  bool negative_ = false;
  uint64_t magnitude_ = 0;
  std::string string_;
  std::vector<JsonValue> items_;
  Members members_;
};

// Parses one JSON document (RFC 8259; whitespace around it allowed). Throws
// chatty::Error "at byte N: ..." for malformed text, trailing text, a
// number beyond a double's range, or arrays and objects nested deeper
// than 512. Strings are taken as bytes: their UTF-8 is not checked.
JsonValue parse_json(std::string_view text);

}  // namespace chatty
