// What `chatty run` prints: the human lines (stdout; stderr when --json
// keeps stdout for the JSON line; nowhere with --quiet), the result
// summary, the run statistics, the trace CSV and the --json object.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <string>

#include "apps/json.h"
#include "apps/run_app.h"
#include "runtime/graph/graph.h"

namespace chatty::job {

class Report {
 public:
  Report(bool json, bool quiet) : to_(quiet ? nullptr : json ? stderr : stdout) {}
  // printf to the human stream.
  void say(const char* fmt, ...) __attribute__((format(printf, 2, 3)));

 private:
  FILE* to_;
};

// One line: reached vertices and max depth/distance, components, top ranks.

// The multi-device exchange, time split and per-device lines.
void report_multi(Report& r, const AppOutput& out);
void write_trace(const AppOutput& out, const std::string& path);
// The "multi" object of --json.
JsonValue multi_json(const AppOutput& out, double partition_s, int local);

}  // namespace chatty::job
