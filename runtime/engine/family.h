// The family the engine runs a program as, decided here once for every
// backend: the program's kind, and for a connectivity program whether
// union-find links it (EngineOptions::union_find) or it runs as a
// traversal (label propagation). The engine shells build the family's ops
// and call its driver (runtime/drivers/).
#pragma once

#include "runtime/base/engine_options.h"
#include "runtime/base/program.h"

namespace chatty {

enum class Family { kGather, kOrdered, kTraversal, kLinking };

// A program's traits, asked only of the kinds that declare them.
template <typename P>
constexpr bool ordered_program() {
  if constexpr (P::kKind == ProgramKind::kTraversal)
    return P::kOrdered;
  else
    return false;
}
template <typename P>
constexpr bool connectivity_program() {
  if constexpr (P::kKind == ProgramKind::kTraversal)
    return P::kConnectivity;
  else
    return false;
}

template <typename P>
constexpr Family family_of(const EngineOptions& opt) {
  if constexpr (P::kKind == ProgramKind::kGather)
    return Family::kGather;
  else if constexpr (ordered_program<P>())
    return Family::kOrdered;
  else
    return connectivity_program<P>() && opt.union_find ? Family::kLinking : Family::kTraversal;
}

}  // namespace chatty
