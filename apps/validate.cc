#include "apps/validate.h"

#include <cstdio>

namespace chatty {

namespace {
std::string id_text(size_t v, const VertexIds* ids) { return std::to_string(ids ? ids->of(vid_t(v)) : v); }
}  // namespace

Validation validate_exact(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want, const char* what,
                          const VertexIds* ids) {
  Validation v;
  if (got.size() != want.size()) {
    v.message = "FAIL: " + std::to_string(got.size()) + " values, reference has " + std::to_string(want.size());
    return v;
  }
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) {
      v.message = "FAIL: vertex " + id_text(i, ids) + ": " + what + " " + show_value(got[i]) + ", reference " +
                  show_value(want[i]);
      return v;
    }
  v.ok = true;
  v.message = std::string("PASS (") + what + " of all " + std::to_string(got.size()) + " vertices match the reference)";
  return v;
}

Validation fail_at(size_t v, const std::string& why, const VertexIds* ids) {
  Validation r;
  r.message = "FAIL: vertex " + id_text(v, ids) + ": " + why;
  return r;
}

std::string show_value(uint32_t x) { return x == kInfinity ? std::string("inf") : std::to_string(x); }

}  // namespace chatty
