// A program that uses ChattyGraph as a library, found by
// find_package(ChattyGraph): loads a graph, runs BFS from an input id and
// PageRank, and prints each vertex's depth in the input's ids; then counts
// the triangles of a graph made from its own edge arrays.
//   api_example GRAPH SOURCE
#include <chattygraph/chattygraph.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: api_example GRAPH SOURCE\n");
    return 2;
  }
  try {
    const chattygraph::Graph g = chattygraph::Graph::load(argv[1]);
    chattygraph::Options bfs;
    bfs.source = std::strtoull(argv[2], nullptr, 10);
    bfs.validate = true;
    const chattygraph::Result r = chattygraph::run(g, "bfs", bfs);
    chattygraph::Options pr;
    pr.tolerance = 1e-8;
    const chattygraph::Result p = chattygraph::run(g, "pr", pr);
    std::fprintf(stderr, "%llu vertices; bfs %s; pagerank %d iterations, converged %d\n",
                 static_cast<unsigned long long>(g.vertices()), r.stats.validation.c_str(), p.stats.iterations,
                 int(p.stats.converged));
    for (size_t v = 0; v < r.ints.size(); ++v)
      if (r.ints[v] != 0xFFFFFFFFu) std::printf("%llu %u\n", static_cast<unsigned long long>(r.ids[v]), r.ints[v]);
    // One triangle, from arrays, in ids of its own.
    const chattygraph::Graph t = chattygraph::Graph::from_edges({0, 1, 2}, {1, 2, 0}, 3, false, {}, {10, 20, 30});
    const chattygraph::Result c = chattygraph::run(t, "tc");
    if (c.counts != std::vector<uint64_t>{1, 1, 1} || c.ids != std::vector<uint64_t>{10, 20, 30}) {
      std::fprintf(stderr, "api_example: the triangle's counts are wrong\n");
      return 4;
    }
    return r.validated ? 0 : 3;
  } catch (const chattygraph::Error& e) {
    std::fprintf(stderr, "api_example: error: %s\n", e.what());
    return 1;
  }
}
