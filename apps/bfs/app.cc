// BFS: depth of every vertex from --source.
#include "apps/bfs/app.h"

#include "apps/bfs/program.h"
#include "apps/bfs/reference.h"
#include "apps/host_run.h"
#include "apps/summaries.h"

namespace chatty {

namespace {

void run_host(const AppRun& r, AppOutput& out) { out.ints = run_on_host(r, BfsProgram{r.source}, out); }

// GAP's BFS check on depths: the source at 0, no edge skips a level, and
// every other reached vertex has a parent one level up.
Validation validate(const AppOutput& out, const Graph& g, vid_t source, const EngineOptions&) {
  const std::vector<uint32_t>& depth = out.ints;
  const Csr& c = g.out();
  const VertexIds* ids = out.ids;
  if (depth.size() != c.num_vertices()) return validate_exact(depth, reference::bfs(g, source), "depth", ids);
  if (depth[source] != 0) return fail_at(source, "the source has depth " + show_value(depth[source]), ids);
  std::vector<char> has_parent(depth.size(), 0);
  for (vid_t u = 0; u < c.num_vertices(); ++u) {
    if (depth[u] == kInfinity) continue;
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
      const vid_t v = c.targets[e];
      if (depth[v] == kInfinity || depth[v] > depth[u] + 1)
        return fail_at(v,
                       "depth " + show_value(depth[v]) + " behind an edge from vertex " + std::to_string(out.id_of(u)) +
                           " at depth " + std::to_string(depth[u]),
                       ids);
      if (depth[v] == depth[u] + 1) has_parent[v] = 1;
    }
  }
  for (vid_t v = 0; v < c.num_vertices(); ++v)
    if (v != source && depth[v] != kInfinity && !has_parent[v])
      return fail_at(v, "depth " + std::to_string(depth[v]) + " but no in-neighbour one level up", ids);
  return validate_exact(depth, reference::bfs(g, source), "depth", ids);
}

std::string text(const AppOutput& out) { return reached_text(out.ints, "depth"); }
JsonValue json(const AppOutput& out) { return reached_json(out.ints, "depth"); }
uint64_t traversed(const AppOutput& out, const Graph& g) { return reached_out_edges(out.ints, g); }

}  // namespace

extern const AppSpec app_bfs;
const AppSpec app_bfs{
    .name = "bfs",
    .about = "breadth-first search: depth of every vertex from --source (direction-optimizing)",
    .python_name = "bfs",
    .python_doc =
        "Depth of every vertex from `source` (an input id; default: the lowest id with an out-edge), "
        "-1 where unreached.",
    .networkx = "single_source_shortest_path_length shortest_path_length has_path descendants_at_distance descendants",
    .needs_source = true,
    .needs_in_edges = true,
    .unreached = true,
    .messages = message_shape<BfsProgram>(),
    .run_host = run_host,
    .run_gpu = CHATTY_GPU_ENTRY(run_bfs_gpu),
    .validate = validate,
    .traversed_edges = traversed,
    .summary_text = text,
    .summary_json = json,
};

}  // namespace chatty
