// The command line's flags set from a Python call's options, for the length
// of one call: the same parser and checks `chatty` runs, so an option is
// refused with the CLI's message; every flag is back at its default after.
#pragma once

#include <gflags/gflags.h>

#include <mutex>
#include <string>
#include <vector>

namespace chatty::py {

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

}  // namespace chatty::py
