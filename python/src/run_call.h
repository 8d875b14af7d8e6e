// One app run for Python: the CLI's flag checks and run pipeline on a graph
// held in memory, off the interpreter's thread so that the GIL is released
// and Ctrl-C stops the run at its next superstep.
#pragma once

#include <string>
#include <vector>

#include "apps/cli/run_job.h"
#include "py_graph.h"

namespace chatty::py {

struct RunCall {
  cli::JobResult job;  // values in the graph's vertex order; job.result.ids is not set
  std::string error;   // what the run threw, or ""
  enum class Kind { kNone, kUsage, kError, kMemory, kInterrupted } kind = Kind::kNone;
};

// Runs `app` on g with `args` ("--name=value", as `chatty run` takes them)
// on the calling thread. Errors before the run starts (an option, a source)
// are kUsage.
RunCall run_on(const std::string& app, const PyGraph& g, const std::vector<std::string>& args);

}  // namespace chatty::py
