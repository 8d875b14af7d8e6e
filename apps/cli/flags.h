// Command-line flags of the `chatty` subcommands (gflags): `chatty run`'s
// are made from the options' list (apps/job/run_options.h), and read only
// here, into a RunOptions.
#pragma once

#include <gflags/gflags.h>

#include "apps/job/run_options.h"

#define CHATTY_DECLARE_FLAG(type, name, value, scope, help) DECLARE_##type(name);
CHATTY_RUN_OPTIONS(CHATTY_DECLARE_FLAG)
#undef CHATTY_DECLARE_FLAG

namespace chatty::cli {

// The flags as options; those given on the command line are marked given.
job::RunOptions options_from_flags();

}  // namespace chatty::cli
