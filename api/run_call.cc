#include "api/run_call.h"

#include <new>

#include "apps/cli/flag_scope.h"
#include "runtime/base/interrupt.h"
#include "runtime/base/status.h"

namespace chattygraph::detail {

using namespace chatty;

RunCall run_on(const std::string& app, const Graph::Impl& g, const std::vector<std::string>& args,
               const std::atomic<bool>* stop) {
  const RunStop this_run(stop);
  RunCall c;
  std::vector<std::string> flags = {"--app=" + app, "--json", "--quiet"};
  flags.insert(flags.end(), args.begin(), args.end());
  // What the preparation depends on: everything but the source.
  std::string key;
  for (const std::string& f : flags)
    if (f.rfind("--source=", 0) != 0) key += f + '\n';
  try {
    cli::RunSetup s;
    // The flags are process-wide: one call at a time sets and reads them,
    // into its own RunSetup; nothing after reads them, so the preparation
    // and the run of several threads' calls overlap.
    {
      cli::FlagScope scope("run", flags);
      as_usage([&] { s = cli::check_run_flags(); });
    }
    std::shared_ptr<const cli::Prepared> prepared;
    {
      std::lock_guard<std::mutex> lock(*g.preparing);
      if (!g.prepared || g.prepared_for != key) {
        g.prepared.reset();  // its memory is free before the next is made (a run holding it keeps it)
        g.prepared = as_usage(
            [&] { return std::make_shared<const cli::Prepared>(cli::prepare_loaded(s, g.g, g.info, g.name, g.path)); });
        g.prepared_for = key;
      }
      prepared = g.prepared;
    }
    std::vector<vid_t> sources;
    as_usage([&] { sources = cli::choose_sources(s, *prepared); });
    cli::Report quiet(true, true);
    c.job = cli::run_job(s, *prepared, sources, quiet);
    c.job.result.ids = nullptr;  // it points into the prepared graph
  } catch (const UsageError& e) {
    c.kind = RunCall::Kind::kUsage, c.error = e.what();
  } catch (const Error& e) {
    c.kind = interrupt_requested() ? RunCall::Kind::kInterrupted : RunCall::Kind::kError, c.error = e.what();
  } catch (const std::bad_alloc&) {
    c.kind = RunCall::Kind::kMemory, c.error = "out of memory";
  } catch (const std::exception& e) {
    c.kind = RunCall::Kind::kError, c.error = e.what();
  }
  return c;
}

}  // namespace chattygraph::detail
