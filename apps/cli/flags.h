// Command-line flags shared by the `chatty` subcommands (gflags).
#pragma once

#include <gflags/gflags.h>

#include "datasets/load.h"
#include "runtime/base/engine_options.h"

DECLARE_string(graph);
DECLARE_string(format);
DECLARE_string(ids);
DECLARE_bool(symmetrize);
DECLARE_bool(dedupe);
DECLARE_bool(drop_self_loops);
DECLARE_uint64(seed);
DECLARE_int32(threads);
DECLARE_bool(json);
DECLARE_int32(devices);
DECLARE_string(reorder);
DECLARE_string(small_bytes);

namespace chatty::cli {

// Load options from --format, --symmetrize, --dedupe, --drop_self_loops, --seed.
LoadOptions load_options();
// Engine options from --threads, --direction, --delta, --tolerance, ...
EngineOptions engine_options();
// Applies --threads to OpenMP; returns the thread count in use.
int apply_threads();

}  // namespace chatty::cli
