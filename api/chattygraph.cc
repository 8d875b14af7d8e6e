#include "api/chattygraph.h"

#include <cstdio>
#include <new>
#include <utility>

#include "api/csr_input.h"
#include "api/held_graph.h"
#include "api/run_call.h"
#include "apps/job/run_options.h"

namespace chattygraph {

namespace {

// The options as `chatty run` takes them: each typed field is its option,
// set through the one parser, so a bad value is refused with its message.
chatty::job::RunOptions options_of(const Options& o) {
  chatty::job::RunOptions r = chatty::job::parse_options(o.flags);
  const auto set = [&r](const char* name, const std::string& text) { chatty::job::set_option(r, name, text); };
  const auto add = [&set](const char* name, const auto& value) {
    if (value) set(name, std::to_string(*value));
  };
  const auto add_real = [&set](const char* name, const std::optional<double>& value) {
    if (!value) return;
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", *value);
    set(name, b);
  };
  if (!o.backend.empty()) set("backend", o.backend);
  add("devices", o.devices);
  add("threads", o.threads);
  add("source", o.source);
  add("sources", o.random_sources);
  if (!o.sources.empty()) {
    std::string list;
    for (uint64_t s : o.sources) list += std::to_string(s) + ",";  // a trailing comma: a list, even of one
    set("sources", list);
  }
  add("max_iters", o.max_iters);
  add("delta", o.delta);
  add("seed", o.seed);
  add_real("tolerance", o.tolerance);
  add_real("damping", o.damping);
  if (o.validate) set("validate", "true");
  r.communicator = o.communicator;
  return r;
}

}  // namespace

Graph Graph::load(const std::string& what, const LoadOptions& opt) {
  using chatty::job::OptionScope;
  chatty::job::RunOptions o = chatty::job::parse_options(opt.flags, OptionScope::kInput);
  if (opt.undirected) chatty::job::set_option(o, "undirected", "true", OptionScope::kInput);
  if (!opt.format.empty()) chatty::job::set_option(o, "format", opt.format, OptionScope::kInput);
  if (!opt.ids.empty()) chatty::job::set_option(o, "ids", opt.ids, OptionScope::kInput);
  const chatty::LoadOptions lopt = chatty::as_usage([&] { return chatty::job::load_options(o); });
  Graph g;
  g.impl_ = std::make_shared<Impl>();
  g.impl_->g = chatty::load_graph(what, lopt, &g.impl_->info);
  g.impl_->read_with = lopt;
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

Graph Graph::from_csr(std::vector<uint64_t> indptr, std::vector<uint32_t> indices, bool directed,
                      std::vector<uint32_t> weights, std::vector<uint64_t> ids) {
  CHATTY_CHECK(!indptr.empty(), "indptr must have n + 1 entries (n >= 0)");
  CHATTY_CHECK(weights.empty() || weights.size() == indices.size(), "weights must have one entry per index");
  const size_t n = indptr.size() - 1;
  CHATTY_CHECK(n < (size_t(1) << 32) - 1, "at most 2^32 - 2 vertices");
  CHATTY_CHECK(ids.empty() || ids.size() == n, "ids must have one entry per vertex");
  struct Arrays {
    std::vector<uint64_t> indptr;
    std::vector<uint32_t> indices, weights;
  };
  auto held = std::make_shared<Arrays>(Arrays{std::move(indptr), std::move(indices), std::move(weights)});
  detail::CsrArrays a;
  a.indptr = held->indptr.data(), a.indices = held->indices.data(), a.n = n, a.m = held->indices.size();
  a.weights = held->weights.empty() ? nullptr : held->weights.data();
  a.keeper = held;
  detail::check_csr(a);
  bool copied = false;
  chatty::Graph csr = detail::graph_from_csr(a, directed, &copied);
  if (!directed) {
    detail::CsrArrays sorted = a;
    sorted.indptr = csr.out().offsets.data(), sorted.indices = csr.out().targets.data();
    if (!detail::symmetric(sorted)) {  // the reverses are added, as from_edges does
      chatty::EdgeList e;
      for (size_t v = 0; v < n; ++v)
        for (uint64_t k = a.indptr[v]; k < a.indptr[v + 1]; ++k) {
          e.src.push_back(uint32_t(v)), e.dst.push_back(a.indices[k]);
          if (a.weights) e.weight.push_back(a.weights[k]);
        }
      Graph g;
      g.impl_ =
          std::make_shared<Impl>(detail::held_from_edges(std::move(e), n, false, true, false, std::move(ids), "<csr>"));
      return g;
    }
  }
  Graph g;
  g.impl_ = std::make_shared<Impl>();
  g.impl_->g = std::move(csr);
  if (!ids.empty()) {
    g.impl_->info.ids.scheme = chatty::IdScheme::kOccurring;
    g.impl_->info.ids.original = std::move(ids);
  }
  g.impl_->info.format = "arrays";
  g.impl_->info.direction_reason = directed ? "directed" : "undirected";
  g.impl_->name = "<csr>";
  return g;
}

uint64_t Graph::vertices() const { return impl_->g.num_vertices(); }
uint64_t Graph::edges() const { return impl_->g.num_edges(); }
bool Graph::directed() const { return impl_->g.directed(); }
uint64_t Graph::id_of(uint64_t v) const { return impl_->info.ids.of(chatty::vid_t(v)); }

Result run(const Graph& g, const std::string& app, const Options& opt) {
  detail::RunCall c = detail::run_on(app, g.impl(), options_of(opt));
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
  r.second = std::move(out.second);
  r.counts = std::move(out.counts);
  r.pairs.assign(out.pairs.begin(), out.pairs.end());
  r.scores = std::move(out.scores);
  const uint64_t n = g.vertices();
  r.ids.resize(n);
  for (uint64_t v = 0; v < n; ++v) r.ids[v] = g.id_of(v);
  r.stats = std::move(c.job.stats);
  r.json = c.job.report.dump();
  r.exit_code = c.job.exit_code;
  r.validated = opt.validate && r.exit_code != 3;
  return r;
}

}  // namespace chattygraph
