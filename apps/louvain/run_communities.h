// The community apps' run on any backend (apps/louvain/app_steps.h for
// host devices, gpu.cu for GPU devices): the program made from the
// options, its levels kept where asked, its figures reported.
#pragma once

#include <vector>

#include "apps/louvain/program.h"
#include "apps/registry.h"

namespace chatty::louvain {

// Runs P{resolution, threshold, max_level, &outcome} by run(program)
// (run_on_host's or run_on_gpus's labels) and reports the modularity and
// the levels where this process computed them.
template <typename P, typename Run>
void run_communities_by(const AppRun& r, AppOutput& out, Run&& run) {
  Outcome found;
  P program{r.opt.resolution, r.opt.threshold, r.opt.max_level, &found};
  if constexpr (requires { program.passes; }) program.passes = r.opt.passes;
  out.levels.clear();
  if (r.opt.keep_levels) program.levels = &out.levels;
  const std::vector<uint64_t> label = run(program);
  out.ints.assign(label.begin(), label.end());
  out.figures.clear();
  if (!found.computed) return;
  out.figures = {{"modularity", found.modularity}, {"levels", double(found.levels)}};
  if constexpr (requires { program.passes; }) out.figures.emplace_back("passes", double(found.passes));
}

}  // namespace chatty::louvain
