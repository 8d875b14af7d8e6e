// Values scaled to unit L2 norm, the sum of squares taken in double
// (eigenvector centrality, Katz's normalisation). A zero or non-finite
// norm leaves them as they are.
#pragma once

#include <cmath>
#include <vector>

namespace chatty {

inline void to_unit_norm(std::vector<float>& x) {
  double squares = 0;
  for (float v : x) squares += double(v) * double(v);
  if (!(squares > 0) || !std::isfinite(squares)) return;
  const double s = 1.0 / std::sqrt(squares);
  for (float& v : x) v = float(double(v) * s);
}

}  // namespace chatty
