#include "api/run_call.h"

#include <exception>
#include <mutex>
#include <new>

#include "runtime/base/interrupt.h"
#include "runtime/base/status.h"

namespace chattygraph::detail {

using namespace chatty;

namespace {

RunCall failed(const std::exception_ptr& e) {
  RunCall c;
  try {
    std::rethrow_exception(e);
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

}  // namespace

RunCall run_on(const std::string& app, const Graph::Impl& g, job::RunOptions o, const std::atomic<bool>* stop) {
  const RunStop this_run(stop);
  RunCall c;
  try {
    job::set_option(o, "app", app);
    o.json = o.quiet = true;
    // What the preparation depends on: every option but the source.
    std::string key;
    for (const job::OptionInfo& i : job::run_option_table())
      if (std::string(i.name) != "source") key += job::option_text(o, i.name) + '\n';
    const job::RunSetup s = as_usage([&] { return job::check_run_options(o); });
    std::shared_ptr<const job::Prepared> prepared;
    {
      std::lock_guard<std::mutex> lock(*g.preparing);
      if (!g.prepared || g.prepared_for != key) {
        g.prepared.reset();  // its memory is free before the next is made (a run holding it keeps it)
        g.prepared = as_usage([&] {
          return std::make_shared<const job::Prepared>(job::prepare_held(s, g.g, g.info, g.name, g.path, g.read_with));
        });
        g.prepared_for = key;
      }
      prepared = g.prepared;
    }
    std::vector<vid_t> sources;
    as_usage([&] { sources = job::choose_sources(s, *prepared); });
    job::Report quiet(true, true);
    c.job = job::run_job(s, *prepared, sources, quiet);
    c.job.result.ids = nullptr;  // it points into the prepared graph
  } catch (...) {
    return failed(std::current_exception());
  }
  return c;
}

RunCall run_on(const std::string& app, const Graph::Impl& g, const std::vector<std::string>& args,
               const std::atomic<bool>* stop, std::optional<int> communicator) {
  job::RunOptions o;
  try {
    o = job::parse_options(args);
  } catch (...) {
    return failed(std::current_exception());
  }
  o.communicator = communicator;
  return run_on(app, g, std::move(o), stop);
}

}  // namespace chattygraph::detail
