// The library's own promises (api/chattygraph.h): graphs from CSR arrays,
// typed options checked with the CLI's messages, statistics as values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/chattygraph.h"

namespace {

// A path 0 - 1 - 2 - 3 and a lone vertex 4, as an undirected CSR.
chattygraph::Graph path_csr(bool with_reverses) {
  if (with_reverses) return chattygraph::Graph::from_csr({0, 1, 3, 5, 6, 6}, {1, 0, 2, 1, 3, 2}, false);
  return chattygraph::Graph::from_csr({0, 1, 2, 3, 3, 3}, {1, 2, 3}, false);
}

TEST(Api, CsrGivesTheGraphItsEdgesSay) {
  for (bool reverses : {true, false}) {
    const chattygraph::Graph g = path_csr(reverses);
    EXPECT_EQ(g.vertices(), 5u);
    EXPECT_EQ(g.edges(), 6u) << "an undirected CSR without reverses is symmetrized";
    chattygraph::Options o;
    o.source = 0;
    const chattygraph::Result r = chattygraph::run(g, "bfs", o);
    EXPECT_EQ(r.ints, (std::vector<uint32_t>{0, 1, 2, 3, 0xFFFFFFFFu}));
    EXPECT_EQ(r.stats.app, "bfs");
    EXPECT_EQ(r.stats.source, 0u);
    EXPECT_EQ(r.stats.vertices, 5u);
    EXPECT_GT(r.stats.iterations, 0);
  }
}

TEST(Api, CsrKeepsTheCallersIds) {
  const chattygraph::Graph g = chattygraph::Graph::from_csr({0, 1, 2, 2}, {1, 2}, true, {5, 7}, {100, 200, 300});
  chattygraph::Options o;
  o.source = 100;
  const chattygraph::Result r = chattygraph::run(g, "sssp", o);
  EXPECT_EQ(r.ids, (std::vector<uint64_t>{100, 200, 300}));
  EXPECT_EQ(r.ints, (std::vector<uint32_t>{0, 5, 12}));
}

TEST(Api, BadCsrIsRefusedByName) {
  const auto message = [](auto make) {
    try {
      make();
    } catch (const chattygraph::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { chattygraph::Graph::from_csr({0, 2, 1}, {1, 0}, true); }).find("indptr"), 0u);
  EXPECT_NE(message([] { chattygraph::Graph::from_csr({0, 1, 2}, {1, 7}, true); }).find("7"), std::string::npos);
  EXPECT_NE(message([] {
              chattygraph::Graph::from_csr({0, 1}, {0}, true, {1, 2});
            }).find("weights"),
            std::string::npos);
}

TEST(Api, OptionsAreCheckedWithTheCommandLinesMessages) {
  const chattygraph::Graph g = path_csr(true);
  const auto usage = [&](const chattygraph::Options& o, const std::string& app = "bfs") {
    try {
      chattygraph::run(g, app, o);
    } catch (const chattygraph::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  chattygraph::Options o;
  o.flags = {"--tolerence=0.1"};
  EXPECT_EQ(usage(o).rfind("unknown flag --tolerence (did you mean --tolerance?)", 0), 0u) << usage(o);
  o.flags = {"--repeat=many"};
  EXPECT_EQ(usage(o), "--repeat=many: --repeat takes a whole number from -2147483648 to 2147483647");
  o.flags = {"--nomigrate"};
  EXPECT_EQ(usage(o), "no error");
  o = {};
  o.damping = 1.5;
  EXPECT_EQ(usage(o, "pr"), "--damping must be in (0, 1)");
  o = {};
  o.source = 0;
  EXPECT_EQ(usage(o, "pr").rfind("--source: pr has no source (bc and bfs", 0), 0u) << usage(o, "pr");
  o = {};
  o.backend = "tpu";
  EXPECT_EQ(usage(o), "unknown --backend 'tpu' (auto, cpu or cuda)");
  chattygraph::LoadOptions l;
  l.flags = {"--validate"};
  try {
    chattygraph::Graph::load("kron:4", l);
    ADD_FAILURE() << "a run's option was taken by load";
  } catch (const chattygraph::UsageError& e) {
    EXPECT_STREQ(e.what(), "--validate does not apply to loading a graph (it is an option of a run)");
  }
}

}  // namespace
