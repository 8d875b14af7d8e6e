// nlohmann/json: the same document (scripts/bench_json_compile.py).
#include <nlohmann/json.hpp>
#include <string>
std::string roundtrip(const std::string& text) {
  nlohmann::json o = nlohmann::json::object();
  o["app"] = "bfs";
  o["compute_s"] = 0.25;
  nlohmann::json a = nlohmann::json::array();
  for (int i = 0; i < 4; ++i) a.push_back(double(i));
  o["steps"] = a;
  const nlohmann::json in = nlohmann::json::parse(text);
  o["iterations"] = in.value("iterations", int64_t(0));
  return o.dump();
}
