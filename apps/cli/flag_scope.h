// The command line's flags set from a library call's options (the C++ API,
// Python), for the length of one scope: the same parser and checks `chatty`
// runs, so an option is refused with the CLI's message; every flag is back
// at its default after. Read the flags inside the scope, into values of
// your own: one scope at a time holds them.
#pragma once

#include <gflags/gflags.h>

#include <mutex>
#include <string>
#include <vector>

namespace chatty::cli {

class FlagScope {
 public:
  // `args`: "--name=value" strings. Throws chatty::UsageError with the CLI's
  // line for an unknown flag, a value of the wrong type, or a flag
  // `command` (a `chatty` subcommand) does not take.
  FlagScope(const std::string& command, const std::vector<std::string>& args);

 private:
  // gflags are process-wide: one call at a time sets them.
  static std::mutex& mutex();
  std::lock_guard<std::mutex> lock_;
  gflags::FlagSaver saved_;
};

// The names of the boolean flags (Python turns name=False into --noname).
std::vector<std::string> bool_flag_names();

}  // namespace chatty::cli
