#include "apps/validate.h"

#include <cstdio>

namespace chatty {

Validation validate_exact(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want, const char* what) {
  Validation v;
  if (got.size() != want.size()) {
    v.message = "FAIL: " + std::to_string(got.size()) + " values, reference has " + std::to_string(want.size());
    return v;
  }
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) {
      v.message = "FAIL: vertex " + std::to_string(i) + ": " + what + " " + show_value(got[i]) + ", reference " +
                  show_value(want[i]);
      return v;
    }
  v.ok = true;
  v.message = std::string("PASS (") + what + " of all " + std::to_string(got.size()) + " vertices match the reference)";
  return v;
}

Validation fail_at(size_t v, const std::string& why) {
  Validation r;
  r.message = "FAIL: vertex " + std::to_string(v) + ": " + why;
  return r;
}

std::string show_value(uint32_t x) { return x == kInfinity ? std::string("inf") : std::to_string(x); }

}  // namespace chatty
