// A value of 16 bytes, what the operators must carry on both backends,
// and its fold, for the host and GPU operator tests.
#pragma once

#include <cstdint>

#include "runtime/base/operators.h"

namespace chatty::testing {

struct Tally {
  double sum;
  uint32_t most;
  uint32_t count;
};
struct AddTally {
  CHATTY_HD Tally operator()(Tally a, Tally b) const {
    return {a.sum + b.sum, a.most > b.most ? a.most : b.most, a.count + b.count};
  }
};
static_assert(ops::Value<Tally> && sizeof(Tally) == 16);

}  // namespace chatty::testing
