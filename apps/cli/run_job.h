// `chatty run`'s work on a prepared graph: the app --repeat times from each
// source, validation, the report lines, --output and --trace, and the
// --json object. The CLI prints the object; the Python package returns it
// with the values.
#pragma once

#include <string>
#include <vector>

#include "apps/cli/run_pipeline.h"
#include "apps/cli/run_report.h"

namespace chatty::cli {

struct JobResult {
  AppOutput result;   // the last run's values, indexed by the loader's numbering (result.ids: the input's ids)
  std::string json;   // the --json object, built whether or not it is printed
  int exit_code = 0;  // 0; 3 when --validate failed; 4 when a gather did not converge
};

// Runs s.app on p from each of `sources` (choose_sources). Throws
// chatty::Error as run_app does. The result's ids point into p.info.
JobResult run_job(const RunSetup& s, const Prepared& p, const std::vector<vid_t>& sources, Report& r);

}  // namespace chatty::cli
