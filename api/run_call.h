// One app run on a held graph: the CLI's flag checks and run pipeline on a
// graph in memory, for the library's run() and the Python module (which
// calls it off the interpreter's thread, the GIL released).
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "api/held_graph.h"
#include "apps/job/run_job.h"
#include "apps/job/run_options.h"

namespace chattygraph::detail {

struct RunCall {
  chatty::job::JobResult job;  // values in the graph's vertex order; job.result.ids is not set
  std::string error;           // what the run threw, or ""
  enum class Kind { kNone, kUsage, kError, kMemory, kInterrupted } kind = Kind::kNone;
};

// Runs `app` on g with options `o` (`chatty run`'s) on the calling thread.
// Errors before the run starts (an option, a source) are kUsage. Setting
// *stop (when given) stops this run, and no other, at its next superstep
// (kInterrupted).
RunCall run_on(const std::string& app, const Graph::Impl& g, chatty::job::RunOptions o,
               const std::atomic<bool>* stop = nullptr);
// The same with options as text ("--name=value", as `chatty run` takes
// them), parsed first (a bad one is kUsage).
// `communicator`: RunOptions::communicator.
RunCall run_on(const std::string& app, const Graph::Impl& g, const std::vector<std::string>& args,
               const std::atomic<bool>* stop = nullptr, std::optional<int> communicator = std::nullopt);

}  // namespace chattygraph::detail
