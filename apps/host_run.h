// An app's run_host and run_gpu over the runtime's runs of a vertex
// program: the app's run unpacked into the engine's arguments.
#pragma once

#include <vector>

#include "apps/registry.h"
#include "runtime/host/run_on_host.h"

namespace chatty {

template <typename P>
std::vector<typename P::Value> run_on_host(const AppRun& r, const P& prog, AppOutput& out) {
  return run_on_host(r.g, prog, r.part, r.opt, r.ranks, out.multi);
}

}  // namespace chatty
