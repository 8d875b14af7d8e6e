// JsonValue: build, dump and parse a small document (scripts/bench_json_compile.py).
#include <string>

#include "runtime/base/json_value.h"
std::string roundtrip(const std::string& text) {
  chatty::JsonValue o = chatty::JsonValue::object();
  o.set("app", chatty::JsonValue(std::string("bfs")));
  o.set("compute_s", chatty::JsonValue(0.25));
  chatty::JsonValue a = chatty::JsonValue::array();
  for (int i = 0; i < 4; ++i) a.push(chatty::JsonValue(double(i)));
  o.set("steps", a);
  const chatty::JsonValue in = chatty::parse_json(text);
  o.set("iterations", chatty::JsonValue(double(in.get("iterations", int64_t(0)))));
  return o.dump();
}
