#include "api/chattygraph.h"

#include <cstdio>
#include <new>
#include <utility>

#include "api/held_graph.h"
#include "api/run_call.h"
#include "apps/cli/flag_scope.h"
#include "apps/cli/flags.h"
#include "runtime/base/json_value.h"

namespace chattygraph {

namespace {

// The options as `chatty run` takes them: each typed field is its flag.
std::vector<std::string> flags_of(const Options& o) {
  std::vector<std::string> f;
  const auto add = [&f](const char* name, const auto& value) {
    if (value) f.push_back(std::string("--") + name + "=" + std::to_string(*value));
  };
  if (!o.backend.empty()) f.push_back("--backend=" + o.backend);
  add("devices", o.devices);
  add("threads", o.threads);
  add("source", o.source);
  add("sources", o.random_sources);
  if (!o.sources.empty()) {
    std::string list;
    for (uint64_t s : o.sources) list += std::to_string(s) + ",";  // a trailing comma: a list, even of one
    f.push_back("--sources=" + list);
  }
  add("max_iters", o.max_iters);
  add("delta", o.delta);
  add("seed", o.seed);
  const auto add_real = [&f](const char* name, const std::optional<double>& value) {
    if (!value) return;
    char b[64];
    std::snprintf(b, sizeof b, "--%s=%.17g", name, *value);
    f.push_back(b);
  };
  add_real("tolerance", o.tolerance);
  add_real("damping", o.damping);
  if (o.validate) f.push_back("--validate");
  f.insert(f.end(), o.flags.begin(), o.flags.end());
  return f;
}

}  // namespace

Graph Graph::load(const std::string& what, const LoadOptions& opt) {
  std::vector<std::string> args = opt.flags;
  if (opt.undirected) args.push_back("--undirected");
  if (!opt.format.empty()) args.push_back("--format=" + opt.format);
  if (!opt.ids.empty()) args.push_back("--ids=" + opt.ids);
  chatty::LoadOptions lopt;
  {
    chatty::cli::FlagScope scope("info", args);
    lopt = chatty::as_usage([] { return chatty::cli::load_options(); });
  }
  Graph g;
  g.impl_ = std::make_shared<Impl>();
  g.impl_->g = chatty::load_graph(what, lopt, &g.impl_->info);
  g.impl_->name = g.impl_->path = what;
  return g;
}

Graph Graph::from_edges(std::vector<uint32_t> src, std::vector<uint32_t> dst, uint64_t n, bool directed,
                        std::vector<uint32_t> weights, std::vector<uint64_t> ids) {
  chatty::EdgeList e;
  e.src = std::move(src), e.dst = std::move(dst), e.weight = std::move(weights);
  Graph g;
  g.impl_ =
      std::make_shared<Impl>(detail::held_from_edges(std::move(e), n, directed, true, true, std::move(ids), "<edges>"));
  return g;
}

uint64_t Graph::vertices() const { return impl_->g.num_vertices(); }
uint64_t Graph::edges() const { return impl_->g.num_edges(); }
bool Graph::directed() const { return impl_->g.directed(); }
uint64_t Graph::id_of(uint64_t v) const { return impl_->info.ids.of(chatty::vid_t(v)); }

Result run(const Graph& g, const std::string& app, const Options& opt) {
  detail::RunCall c = detail::run_on(app, g.impl(), flags_of(opt));
  using Kind = detail::RunCall::Kind;
  switch (c.kind) {
    case Kind::kUsage: throw UsageError(c.error);
    case Kind::kMemory: throw std::bad_alloc();
    case Kind::kInterrupted:
    case Kind::kError: throw Error(c.error);
    case Kind::kNone: break;
  }
  chatty::AppOutput& out = c.job.result;
  Result r;
  r.app = chatty::app_name(out.app);
  r.ints = std::move(out.ints);
  r.reals = std::move(out.ranks);
  r.counts = std::move(out.counts);
  const uint64_t n = g.vertices();
  r.ids.resize(n);
  for (uint64_t v = 0; v < n; ++v) r.ids[v] = g.id_of(v);
  const chatty::JsonValue stats = chatty::parse_json(c.job.json);
  r.compute_seconds = stats.get("compute_s", 0.0);
  r.iterations = stats.get("iterations", 0);
  r.converged = stats.get("converged", true);
  r.validation = stats.get("validation", "");
  r.json = std::move(c.job.json);
  r.exit_code = c.job.exit_code;
  r.validated = opt.validate && r.exit_code != 3;
  return r;
}

}  // namespace chattygraph
