// A minimal JSON object writer for the one-line summaries `--json` prints.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace chatty {

class JsonObject {
 public:
  JsonObject& add(const std::string& key, const std::string& v) { return raw(key, quote(v)); }
  JsonObject& add(const std::string& key, const char* v) { return raw(key, quote(v)); }
  JsonObject& add(const std::string& key, bool v) { return raw(key, v ? "true" : "false"); }
  JsonObject& add(const std::string& key, double v) { return raw(key, num(v)); }
  JsonObject& add(const std::string& key, uint64_t v) { return raw(key, std::to_string(v)); }
  JsonObject& add(const std::string& key, int v) { return raw(key, std::to_string(v)); }
  JsonObject& add(const std::string& key, const std::vector<double>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) s += ',';
      s += num(v[i]);
    }
    s += ']';
    return raw(key, s);
  }
  JsonObject& raw(const std::string& key, const std::string& json) {
    if (!body_.empty()) body_ += ',';
    body_ += quote(key);
    body_ += ':';
    body_ += json;
    return *this;
  }
  std::string str() const {
    std::string s(1, '{');
    s += body_;
    s += '}';
    return s;
  }

 private:
  static std::string num(double v) {
    if (!std::isfinite(v)) return "null";
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
  }
  static std::string quote(const std::string& s) {
    std::string o(1, '"');
    for (char c : s) {
      if (c == '"' || c == '\\') o += '\\';
      if (static_cast<unsigned char>(c) < 0x20) {
        char b[8];
        std::snprintf(b, sizeof b, "\\u%04x", c);
        o += b;
        continue;
      }
      o += c;
    }
    o += '"';
    return o;
  }
  std::string body_;
};

}  // namespace chatty
