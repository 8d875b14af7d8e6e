// `chatty convert`, `chatty generate`, `chatty info`: graph files in and out.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "apps/cli/commands.h"
#include "apps/cli/flags.h"
#include "apps/job/run_setup.h"
#include "apps/json.h"
#include "datasets/generators.h"
#include "datasets/load.h"
#include "runtime/base/status.h"
#include "runtime/graph/partition.h"
#include "runtime/graph/reorder.h"

DEFINE_string(out, "", "output file for convert/generate (format from its extension)");
static const std::string kOutFormatHelp = "output format: auto (by extension), " + chatty::format_names(true);
DEFINE_string(out_format, "auto", kOutFormatHelp.c_str());

namespace chatty::cli {
namespace {

// Input/output from positional arguments or --graph / --out.
std::pair<std::string, std::string> in_out(const char* cmd, const std::vector<std::string>& args) {
  std::string in = FLAGS_graph, out = FLAGS_out;
  if (args.size() >= 1) in = args[0];
  if (args.size() >= 2) out = args[1];
  CHATTY_CHECK(args.size() <= 2, std::string(cmd) + ": too many arguments");
  CHATTY_CHECK(!out.empty(), std::string(cmd) + ": no output file (chatty " + cmd + " IN OUT, or --out=FILE)");
  std::error_code ec;
  CHATTY_CHECK(!std::filesystem::equivalent(in, out, ec),
               std::string(cmd) + ": " + out + " is the input itself: write to another file");
  return {in, out};
}

int write(const char* cmd, const std::string& in, const std::string& out) {
  job::apply_threads(FLAGS_threads);
  double t0 = omp_get_wtime();
  LoadInfo info;
  const Format out_format = as_usage([] { return parse_format(FLAGS_out_format); });
  Graph g = load_graph(in, as_usage([] { return job::load_options(options_from_flags()); }), &info);
  double t1 = omp_get_wtime();
  const std::string note = save_graph(g, out, out_format, info.ids);
  if (!note.empty()) std::fprintf(stderr, "chatty: warning: %s\n", note.c_str());
  double t2 = omp_get_wtime();
  std::printf("%s: %s -> %s: %u vertices, %lu edges (%s%s); load %.3f s, write %.3f s\n", cmd, in.c_str(), out.c_str(),
              g.num_vertices(), (unsigned long)g.num_edges(), g.directed() ? "directed" : "undirected",
              g.weighted() ? ", weighted" : "", t1 - t0, t2 - t1);
  return 0;
}

// Per-chunk vertices, edges, boundary vertices and balance F for the
// chunks `run --devices` would use.
void print_chunks(const Graph& g, const Partition& part) {
  const auto chunks = chunk_stats(g, part);
  std::printf("partition    %d chunks (alpha = %.0f)\n", FLAGS_devices,
              std::floor(double(g.num_edges()) / double(g.num_vertices())));
  std::printf("  %-6s %12s %14s %12s %14s\n", "chunk", "vertices", "edges", "boundary", "F");
  double total = 0;
  for (size_t d = 0; d < chunks.size(); ++d) {
    const ChunkStats& c = chunks[d];
    total += c.balance;
    std::printf("  %-6zu %12u %14lu %12lu %14.0f\n", d, c.vertices, (unsigned long)c.edges, (unsigned long)c.boundary,
                c.balance);
  }
  std::printf("  %-6s %12s %14s %12s %14.0f\n", "sum", "", "", "", total);
}

JsonValue chunks_json(const Graph& g, const Partition& part) {
  JsonValue chunks = JsonValue::array();
  for (const ChunkStats& c : chunk_stats(g, part))
    chunks.push(JsonObject()
                    .add("vertices", uint64_t(c.vertices))
                    .add("edges", uint64_t(c.edges))
                    .add("boundary", c.boundary)
                    .add("balance", c.balance)
                    .value());
  return chunks;
}

}  // namespace

int cmd_convert(const std::vector<std::string>& args) {
  auto [in, out] = in_out("convert", args);
  return write("convert", in, out);
}

int cmd_generate(const std::vector<std::string>& args) {
  auto [in, out] = in_out("generate", args);
  CHATTY_CHECK(
      is_graph_spec(in),
      "generate: '" + in + "' is not a generator spec (kron:SCALE[:EF], urand:SCALE[:EF], grid:WxH, road:WxH)");
  return write("generate", in, out);
}

int cmd_info(const std::vector<std::string>& args) {
  CHATTY_CHECK(args.size() <= 1, "info: too many arguments");
  const std::string in = args.empty() ? FLAGS_graph : args[0];
  job::apply_threads(FLAGS_threads);
  double t0 = omp_get_wtime();
  LoadInfo loaded;
  Graph g = load_graph(in, as_usage([] { return job::load_options(options_from_flags()); }), &loaded);
  // As `run --reorder=degree` (PageRank's default) relabels: within the
  // chunks of --devices, so each chunk keeps its vertices and edges.
  as_usage([] {
    CHATTY_CHECK(FLAGS_reorder == "auto" || FLAGS_reorder == "degree" || FLAGS_reorder == "none",
                 "--reorder must be auto, degree or none");
  });
  Partition part;
  if (FLAGS_devices > 1) part = partition_graph(g, FLAGS_devices);
  if (FLAGS_reorder == "degree") {
    g = reorder_by_degree(g, part.bounds).graph;
    if (FLAGS_devices > 1) part = partition_at(g, part.bounds);  // the same chunks, boundary in new ids
  }
  const double load_s = omp_get_wtime() - t0;
  const vid_t n = g.num_vertices();
  std::vector<eid_t> deg(n);
  eid_t max_deg = 0, no_out = 0, isolated = 0, self_loops = 0;
  const Csr& c = g.out();
  std::vector<char> has_in(n, 0);  // racy writes of the same 1
#pragma omp parallel for schedule(dynamic, 1024) reduction(max : max_deg) reduction(+ : no_out, self_loops)
  for (vid_t v = 0; v < n; ++v) {
    deg[v] = c.degree(v);
    max_deg = std::max(max_deg, deg[v]);
    no_out += deg[v] == 0;
    for (eid_t e = c.offsets[v]; e < c.offsets[v + 1]; ++e) {
      self_loops += c.targets[e] == v;
      __atomic_store_n(&has_in[c.targets[e]], 1, __ATOMIC_RELAXED);
    }
  }
#pragma omp parallel for reduction(+ : isolated)
  for (vid_t v = 0; v < n; ++v) isolated += deg[v] == 0 && !has_in[v];
  const eid_t sinks = no_out - isolated;  // in-edges but no out-edge
  std::nth_element(deg.begin(), deg.begin() + n / 2, deg.end());
  const eid_t median = deg[n / 2];
  const double mean = double(g.num_edges()) / double(n);
  const uint64_t undirected_edges = g.directed() ? 0 : (g.num_edges() + self_loops) / 2;
  if (FLAGS_json) {
    JsonObject j;
    if (FLAGS_devices > 1) j.add("chunks", chunks_json(g, part));
    j.add("graph", in).add("vertices", uint64_t(n)).add("edges", uint64_t(g.num_edges()));
    j.add("directed", g.directed()).add("weighted", g.weighted());
    j.add("format", loaded.format).add("compression", loaded.compression);
    j.add("direction_reason", loaded.direction_reason);
    j.add("ids", loaded.ids.name()).add("ids_range", loaded.ids.describe(n));
    j.add("degree_min", uint64_t(no_out ? 0 : *std::min_element(deg.begin(), deg.end())));
    j.add("degree_max", uint64_t(max_deg)).add("degree_mean", mean).add("degree_median", uint64_t(median));
    j.add("isolated", uint64_t(isolated))
        .add("sinks", uint64_t(sinks))
        .add("self_loops", uint64_t(self_loops))
        .add("load_s", load_s);
    std::printf("%s\n", j.str().c_str());
    return 0;
  }
  std::printf("graph        %s\n", in.c_str());
  std::printf("vertices     %u\n", n);
  std::printf("ids          %s: %s\n", loaded.ids.name(), loaded.ids.describe(n).c_str());
  if (g.directed())
    std::printf("edges        %lu (directed)\n", (unsigned long)g.num_edges());
  else
    std::printf("edges        %lu undirected (%lu stored, both directions)\n", (unsigned long)undirected_edges,
                (unsigned long)g.num_edges());
  std::printf("directed     %s (%s)\nweighted     %s\n", g.directed() ? "yes" : "no", loaded.direction_reason.c_str(),
              g.weighted() ? "yes" : "no");
  std::printf("format       %s%s\n", loaded.format.c_str(),
              loaded.compression.empty() ? "" : (", " + loaded.compression).c_str());
  std::printf("out-degree   min %lu, median %lu, mean %.2f, max %lu\n",
              (unsigned long)(no_out ? 0 : *std::min_element(deg.begin(), deg.end())), (unsigned long)median, mean,
              (unsigned long)max_deg);
  std::printf("isolated     %lu vertices without edges\n", (unsigned long)isolated);
  if (g.directed()) std::printf("sinks        %lu vertices with in-edges only\n", (unsigned long)sinks);
  std::printf("self loops   %lu\n", (unsigned long)self_loops);
  std::printf("load         %.3f s\n", load_s);
  if (FLAGS_devices > 1) print_chunks(g, part);
  return 0;
}

}  // namespace chatty::cli
