// What an app's verifier (apps/<name>/app.cc) reports, and the checks they
// share. Each verifier checks invariants of the answer in GAP's manner,
// then compares it with its sequential reference: exactly where the answer
// is unique, within a bound for PageRank. Messages name the first bad vertex.
#pragma once

#include <string>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/graph/vertex_ids.h"

namespace chatty {

struct Validation {
  bool ok = false;
  std::string message;  // "PASS ..." or "FAIL: ..."
};

Validation validate_exact(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want, const char* what,
                          const VertexIds* ids = nullptr);
// "FAIL: vertex v: why".
Validation fail_at(size_t v, const std::string& why, const VertexIds* ids = nullptr);
// "inf" for kInfinity, else the number.
std::string show_value(uint32_t x);

}  // namespace chatty
