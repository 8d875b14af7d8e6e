// `chatty run`: load a graph, run an app --repeat times (from each of
// --sources random sources), report the median, a summary of the result,
// and the run's statistics.
#include <cstdio>

#include "apps/cli/commands.h"
#include "apps/cli/flags.h"
#include "apps/job/run_job.h"
#include "cpu_cluster/cluster.h"
#include "runtime/base/status.h"

namespace chatty::cli {

int cmd_run(const std::vector<std::string>& args) {
  CHATTY_CHECK(args.empty(), "run: unexpected argument '" + (args.empty() ? "" : args[0]) + "' (use --graph=...)");
  const job::RunOptions o = options_from_flags();
  job::RunSetup s = job::check_run_options(o);
  s.default_app = !o.was_given("app");
  s.default_graph = !o.was_given("graph");
  job::Report r(s.json, s.quiet);
  // As a rank, a failure here may be this rank's alone (memory, a file
  // it cannot read): every rank learns of it before any waits for the others.
  job::Prepared p;
  std::vector<vid_t> sources;
  std::string failed;
  try {
    p = job::prepare(s);
    sources = job::choose_sources(s, p);
  } catch (const Error& e) {
    failed = e.what();
  }
  cluster_throw_agreed(failed);
  const job::JobResult job = job::run_job(s, p, sources, r);
  if (s.json) std::printf("%s\n", job.report.dump().c_str());
  std::fflush(stdout);
  return job.exit_code;
}

}  // namespace chatty::cli
