// The one-line reports `--json` prints, built member by member on a
// JsonValue (runtime/base/json_value.h: its escaping and its numbers, the
// shortest text that reads back to the same double).
#pragma once

#include <string>
#include <utility>

#include "runtime/base/json_value.h"

namespace chatty {

class JsonObject {
 public:
  // Any value a JsonValue is made from: numbers, strings, bools, vectors
  // (as arrays) and JsonValues, nested objects and arrays included.
  template <typename T>
  JsonObject& add(const std::string& key, const T& v) {
    value_.set(key, JsonValue(v));
    return *this;
  }
  template <typename T>
  JsonObject& add(const std::string& key, const std::vector<T>& v) {
    value_.set(key, JsonValue::array_of(v));
    return *this;
  }
  const JsonValue& value() const { return value_; }
  std::string str() const { return value_.dump(); }

 private:
  JsonValue value_ = JsonValue::object();
};

}  // namespace chatty
