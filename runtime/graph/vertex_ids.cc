#include "runtime/graph/vertex_ids.h"

#include <algorithm>

namespace chatty {

std::optional<vid_t> VertexIds::find(uint64_t id, vid_t n) const {
  switch (scheme) {
    case IdScheme::kPositions:
      if (id < n) return vid_t(id);
      return std::nullopt;
    case IdScheme::kOneBased:
      if (id >= 1 && id <= n) return vid_t(id - 1);
      return std::nullopt;
    case IdScheme::kOccurring: {
      const auto it = std::lower_bound(original.begin(), original.end(), id);
      if (it != original.end() && *it == id) return vid_t(it - original.begin());
      return std::nullopt;
    }
  }
  return std::nullopt;
}

const char* VertexIds::name() const {
  switch (scheme) {
    case IdScheme::kPositions: return "positions";
    case IdScheme::kOneBased: return "1-based";
    case IdScheme::kOccurring: return "occurring";
  }
  return "?";
}

std::string VertexIds::describe(vid_t n) const {
  if (n == 0) return "none";
  if (scheme != IdScheme::kOccurring) return std::to_string(of(0)) + ".." + std::to_string(of(n - 1));
  return std::to_string(n) + " ids from " + std::to_string(original.front()) + " to " + std::to_string(original.back());
}

}  // namespace chatty
