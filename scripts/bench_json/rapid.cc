// RapidJSON: the same document (scripts/bench_json_compile.py).
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
std::string roundtrip(const std::string& text) {
  rapidjson::Document o(rapidjson::kObjectType);
  auto& al = o.GetAllocator();
  o.AddMember("app", "bfs", al);
  o.AddMember("compute_s", 0.25, al);
  rapidjson::Value a(rapidjson::kArrayType);
  for (int i = 0; i < 4; ++i) a.PushBack(double(i), al);
  o.AddMember("steps", a, al);
  rapidjson::Document in;
  in.Parse(text.c_str());
  int64_t it = in.HasMember("iterations") ? in["iterations"].GetInt64() : 0;
  o.AddMember("iterations", it, al);
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  o.Accept(w);
  return b.GetString();
}
