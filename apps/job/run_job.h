// `chatty run`'s work on a prepared graph: the app --repeat times from each
// source, validation, the report lines, --output and --trace, the
// statistics and the --json object. The CLI prints the object; the library
// returns the statistics and the Python package the object, as a dict.
#pragma once

#include <string>
#include <vector>

#include "apps/job/run_pipeline.h"
#include "apps/job/run_report.h"
#include "apps/job/run_stats.h"
#include "runtime/base/json_value.h"

namespace chatty::job {

struct JobResult {
  AppOutput result;  // the last run's values, indexed by the loader's numbering (result.ids: the input's ids)
  RunStats stats;
  JsonValue report;   // the --json object (with s.json; else null)
  int exit_code = 0;  // 0; 3 when --validate failed; 4 when a gather did not converge
};

// Runs s.app on p from each of `sources` (choose_sources). Throws
// chatty::Error as run_app does. The result's ids point into p.info.
JobResult run_job(const RunSetup& s, const Prepared& p, const std::vector<vid_t>& sources, Report& r);

}  // namespace chatty::job
