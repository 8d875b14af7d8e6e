// Runs a vertex program on host devices, for an app's run_host: the
// engine's drivers over part's chunks, with the exchange that opt.comm
// names. Statistics go to out.multi.
#pragma once

#include <utility>
#include <vector>

#include "apps/registry.h"
#include "comm/transport.h"
#include "runtime/multi_engine.h"

namespace chatty {

template <typename P>
std::vector<typename P::Value> run_on_host(const AppRun& r, const P& prog, AppOutput& out) {
  auto policy = make_fixed_policy(make_host_transport(r.opt.comm));
  return std::move(run_program_multi(r.g, prog, r.part, r.opt, *policy, out.multi).values);
}

}  // namespace chatty
