// The SSSP app's entries (apps/sssp/app.cc, gpu.cu).
#pragma once

#include "apps/registry.h"
#include "apps/sssp/program.h"
#include "runtime/base/status.h"

namespace chatty {

void run_sssp_gpu(const AppRun& r, AppOutput& out);
// Throws chatty::Error if a distance saturated (exceeds 2^32-2): a wrong
// answer is never returned as a result.
inline void check_sssp_overflow(const AppOutput& out) {
  for (uint32_t d : out.ints)
    CHATTY_CHECK(d != SsspProgram::kOverflow, "sssp: a shortest distance exceeds 2^32-2 (32-bit overflow)");
}

}  // namespace chatty
