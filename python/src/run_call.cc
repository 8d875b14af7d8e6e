#include "run_call.h"

#include <new>

#include "flag_scope.h"
#include "runtime/interrupt.h"
#include "runtime/status.h"

namespace chatty::py {

RunCall run_on(const std::string& app, const PyGraph& g, const std::vector<std::string>& args) {
  RunCall c;
  std::vector<std::string> flags = {"--app=" + app, "--json", "--quiet"};
  flags.insert(flags.end(), args.begin(), args.end());
  try {
    cli::RunSetup s;
    cli::Prepared p;
    std::vector<vid_t> sources;
    FlagScope scope("run", flags);
    as_usage([&] {
      s = cli::check_run_flags();
      p = cli::prepare_loaded(s, g.g, g.info, g.name, g.path);
      sources = cli::choose_sources(s, p);
    });
    cli::Report quiet(true, true);
    c.job = cli::run_job(s, p, sources, quiet);
    c.job.result.ids = nullptr;  // it pointed into p
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

}  // namespace chatty::py
