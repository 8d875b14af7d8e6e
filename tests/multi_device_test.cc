// The multi-device runtime: every app on P = 1..8 host devices, over the
// host transports, gives the P = 1 results (exactly for BFS, SSSP, WCC;
// within tolerance for PageRank) on kron, urand, grid and the real graph.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "apps/bfs/reference.h"
#include "apps/pagerank/reference.h"
#include "apps/run_app.h"
#include "apps/sssp/reference.h"
#include "apps/wcc/reference.h"
#include "comm/transport_table.h"
#include "datasets/load.h"
#include "runtime/engine/exchange_policy.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/graph/partition.h"
#include "runtime/migration/work_migration.h"
#include "test_util.h"

namespace chatty {
namespace {

// Under ThreadSanitizer every step runs many times slower: a straggler
// pauses longer for its peer to arrive while blocks remain, and a peer
// waits for a slow owner to open its worklist only so long (2 ms), so
// migration is asserted over all the runs there, per run elsewhere.
#if defined(__SANITIZE_THREAD__)
#define CHATTY_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CHATTY_TSAN 1
#endif
#endif
#ifdef CHATTY_TSAN
constexpr uint32_t kStragglerScale = 10;
constexpr bool kMigrationPerRun = false;
#else
constexpr uint32_t kStragglerScale = 1;
constexpr bool kMigrationPerRun = true;
#endif

struct MultiCase {
  std::string graph;
  int devices;
  std::string comm;
  std::string exchange = "broadcast";
  bool copies = false;  // each device holds a copy of its chunk's edges
};

void PrintTo(const MultiCase& c, std::ostream* os) {
  *os << c.graph << " on " << c.devices << " devices, " << c.comm << ", " << c.exchange
      << (c.copies ? ", chunk copies" : "");
}

std::string case_name(const ::testing::TestParamInfo<MultiCase>& i) {
  std::string g = i.param.graph.find('/') != std::string::npos ? "facebook" : i.param.graph;
  for (char& ch : g)
    if (ch == ':') ch = '_';
  return g + "_P" + std::to_string(i.param.devices) + "_" + i.param.comm + (i.param.exchange == "peer" ? "_peer" : "") +
         (i.param.copies ? "_copies" : "");
}

class MultiDevice : public ::testing::TestWithParam<MultiCase> {
 protected:
  static Graph load(const std::string& spec) {
    LoadOptions o;
    o.seed = 5;
    Graph g = load_graph(spec, o);
    prepare_graph(parse_app("sssp"), g, true, 5);
    return g;
  }
  EngineOptions options() const {
    EngineOptions o;
    o.devices = GetParam().devices;
    o.comm = parse_comm(GetParam().comm);
    o.exchange = parse_exchange(GetParam().exchange);
    o.chunk_copies = GetParam().copies;
    o.passes = 1;  // Leiden: one pass of levels (tests/louvain_test.cc runs the passes)
    return o;
  }
};

// One device's output of an app on a graph and its verifier's verdict,
// computed once a process: every case on that graph compares against them.
struct OneDevice {
  AppOutput out;
  Validation v;
};
const OneDevice& one_device(const std::string& spec, App app, const Graph& g, vid_t s, const EngineOptions& one) {
  static std::map<std::pair<std::string, std::string>, OneDevice> done;
  const std::pair<std::string, std::string> key{spec, app_name(app)};
  if (const auto it = done.find(key); it != done.end()) return it->second;
  OneDevice d;  // kept only once computed: a run that throws leaves nothing behind
  d.out = run_app(app, g, s, one);
  d.v = validate_app(d.out, g, s, one);
  return done.emplace(key, std::move(d)).first->second;
}

// Whether two outputs hold the same values, all that a verifier reads (no
// verifier reads the device count or transport): the same verdict then.
bool same_values(const AppOutput& a, const AppOutput& b) {
  return a.ints == b.ints && a.levels == b.levels && a.ranks == b.ranks && a.second == b.second &&
         a.counts == b.counts && a.pairs == b.pairs && a.scores == b.scores && a.sources == b.sources &&
         a.figures == b.figures && a.multi.converged == b.multi.converged;
}

// Every registered app that accepts the graph: valid by its verifier, and
// integral answers equal to one device's.
TEST_P(MultiDevice, EveryAppMatchesOneDevice) {
  Graph g = load(GetParam().graph);
  const EngineOptions opt = options();
  const Partition part = partition_graph(g, opt.devices);
  const vid_t s = default_source(g);
  EngineOptions one_opt;
  one_opt.passes = opt.passes;
  int ran = 0;
  for (App app : all_apps()) {
    const AppSpec& a = app_spec(app);
    if (a.check && testing::error_of([&] { a.check(g, opt); }) != "(no error)") continue;  // kcore: undirected only
    // A walk from every vertex (closeness) costs |V| x |E|: the smaller graphs show its split as well.
    if (app == parse_app("closeness") && g.num_edges() > 20000) continue;
    if (a.per_pair) continue;  // tests/pairs_test.cc runs them at 1, 2 and 4 devices
    ++ran;
    AppOutput many = run_app(app, g, s, opt, &part);
    const OneDevice& one = one_device(GetParam().graph, app, g, s, one_opt);
    const Validation v = same_values(many, one.out) ? one.v : validate_app(many, g, s, opt);
    EXPECT_TRUE(v.ok) << app_name(app) << ": " << v.message;
    if (a.values == Values::kInts) {
      EXPECT_EQ(many.ints, one.out.ints) << app_name(app);
    }
    if (a.values == Values::kCounts) {
      EXPECT_EQ(many.counts, one.out.counts) << app_name(app);
    }
    EXPECT_EQ(many.multi.devices, opt.devices);
    // Union-find WCC broadcasts whatever the option; the apps on the whole graph (TC, BC, weighted BC) read
    // their peers' rows in place and exchange nothing.
    if (opt.devices > 1 && !(app == parse_app("wcc") && opt.union_find) && !a.whole_graph) {
      EXPECT_EQ(many.multi.exchange, GetParam().exchange) << app_name(app);
    }
    EXPECT_FALSE(many.multi.steps.empty());
    ASSERT_EQ(many.multi.device_seconds.size(), size_t(opt.devices));
    double compute = 0;
    for (const auto& d : many.multi.device_seconds) compute += d[kCompute];
    EXPECT_NEAR(compute / opt.devices, many.multi.seconds(kCompute), 1e-9 + 1e-6 * compute);
    // Without dangling vertices every rank is summed in the same order on any
    // P, so the ranks are bit-identical (a grid also has vertices whose rank
    // does not change in a step, which replicas must still see).
    if (app == parse_app("pr") && GetParam().graph.rfind("grid", 0) == 0) {
      EXPECT_EQ(many.ranks, one.out.ranks);
    }
  }
  EXPECT_GE(ran, g.directed() ? 5 : 7);  // kcore and tc need an undirected graph
}

std::vector<MultiCase> cases() {
  std::vector<MultiCase> c;
  std::vector<const char*> host_comms;  // every host transport of the table
  for (const TransportInfo& t : transport_table())
    if (t.world == World::kHostDevices) host_comms.push_back(t.name);
  // Every transport at P = 2, 3 and 8; one a count, in turn, at the
  // counts between; one device exchanges nothing, so one transport there.
  for (int p = 1; p <= 8; ++p)
    for (size_t i = 0; i < host_comms.size(); ++i) {
      const bool every = p == 2 || p == 3 || p == 8;
      if (p == 1 ? i > 0 : !every && i != size_t(p) % host_comms.size()) continue;
      const char* comm = host_comms[i];
      c.push_back({"kron:11", p, comm});
      c.push_back({"grid:40x25", p, comm});
      if (p > 1)
        for (const char* g : {"kron:11", "grid:40x25"}) c.push_back({g, p, comm, "peer"});
    }
  for (int p : {2, 3, 5}) {
    c.push_back({"urand:11:6", p, p == 3 ? "host_view" : "host"});
    c.push_back({testing::data_file("facebook_combined.txt"), p, "host_read"});
    c.push_back({"urand:11:6", p, "host_view", "peer"});
    c.push_back({testing::data_file("facebook_combined.txt"), p, "host", "peer"});
  }
  // Devices that hold only their own chunk's edges: one that read another
  // device's would read past its arrays (AddressSanitizer) or compute wrong.
  for (int p : {1, 2, 4, 7})
    for (const char* g : {"kron:11", "grid:40x25", "urand:11:6"}) c.push_back({g, p, "host", "broadcast", true});
  c.push_back({testing::data_file("facebook_combined.txt"), 3, "host_read", "peer", true});
  return c;
}

INSTANTIATE_TEST_SUITE_P(Graphs, MultiDevice, ::testing::ValuesIn(cases()), case_name);

// Devices of several threads: kernels inside a device run on a nested team
// (CAS links, atomic claims). The graph is big enough that every team
// splits its work, which is what the ThreadSanitizer pass needs to see.
TEST(MultiDeviceTeams, DevicesOfSeveralThreadsMatchOneDevice) {
  LoadOptions o;
  o.seed = 9;
  Graph g = load_graph("kron:14", o);
  prepare_graph(parse_app("sssp"), g, true, 9);
  const vid_t s = default_source(g);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(6);
  EngineOptions opt;
  opt.devices = 2;
  const Partition part = partition_graph(g, 2);
  for (App app : {parse_app("bfs"), parse_app("sssp"), parse_app("wcc")}) {
    const AppOutput many = run_app(app, g, s, opt, &part);
    EXPECT_EQ(many.ints, run_app(app, g, s, EngineOptions{}).ints) << app_name(app);
  }
  const AppOutput pr = run_app(parse_app("pr"), g, s, opt, &part);
  omp_set_num_threads(threads);
  const Validation v = validate_app(pr, g, s, opt);
  EXPECT_TRUE(v.ok) << v.message;
}

// auto addresses records per peer only across ranks and only where a
// device has several peers; an explicit choice stands; union-find
// connectivity always broadcasts.
TEST(ExchangePolicy, AutoAddressesAcrossRanksWhereADeviceHasSeveralPeers) {
  EXPECT_FALSE(exchange_per_peer(Exchange::kAuto, false, 2, /*across_ranks=*/true));
  EXPECT_TRUE(exchange_per_peer(Exchange::kAuto, false, 3, true));
  EXPECT_TRUE(exchange_per_peer(Exchange::kAuto, false, 4, true));
  EXPECT_FALSE(exchange_per_peer(Exchange::kAuto, false, 4, false));
  EXPECT_TRUE(exchange_per_peer(Exchange::kPeer, false, 2, true));
  EXPECT_FALSE(exchange_per_peer(Exchange::kBroadcast, false, 4, true));
  EXPECT_FALSE(exchange_per_peer(Exchange::kPeer, /*union_find_connectivity=*/true, 4, true));
}

// SSSP reads the weights a byte each where every one fits
// (Graph::narrow_weights) and the full ones otherwise: Dijkstra's distances
// either way, on one device and on three. A narrow copy made of weights
// that do not fit would cut 256 to 0 and fail this.
TEST(SsspWeights, NarrowWhereEveryWeightFitsAByteAndWideOtherwise) {
  Graph g = load_graph("kron:12", LoadOptions{});
  const vid_t s = default_source(g);
  for (const weight_t widest : {255u, 256u, 100000u}) {
    Buffer<weight_t> w(g.num_edges());
    for (eid_t e = 0; e < g.num_edges(); ++e) w.mutable_data()[e] = weight_t(1 + (e * 7919) % widest);
    g.set_weights(std::move(w));
    prepare_graph(parse_app("sssp"), g, true, 1);
    const uint8_t* narrow = g.narrow_weights();
    ASSERT_EQ(narrow != nullptr, widest <= 255) << widest;
    for (eid_t e = 0; narrow && e < g.num_edges(); ++e) ASSERT_EQ(narrow[e], g.out().weights[e]) << e;
    const std::vector<uint32_t> want = reference::sssp(g, s);
    EXPECT_EQ(run_app(parse_app("sssp"), g, s, EngineOptions{}).ints, want) << widest;
    EngineOptions opt;
    opt.devices = 3;
    const Partition part = partition_graph(g, 3);
    EXPECT_EQ(run_app(parse_app("sssp"), g, s, opt, &part).ints, want) << widest;
  }
}

// Work migration: a device with one block of a grid's vertices empties its
// worklist at once and computes blocks of its peer's, writing into the
// peer's buffers. A grid has no dangling vertices, so every rank is summed
// in the same order whoever computes it: the ranks equal P = 1's exactly,
// with migration and without.
TEST(MultiDeviceMigration, AnIdleDeviceComputesItsPeersBlocks) {
  const Graph g = load_graph("grid:800x500", LoadOptions{});
  const vid_t n = g.num_vertices();
  const Partition part = partition_at(g, {0, n - 1000, n});
  EngineOptions opt;
  opt.tolerance = 1e-9;
  const auto one = run_app(parse_app("pr"), g, 0, opt).ranks;
  opt.devices = 2;
  opt.chunk_copies = true;  // the blocks it takes are read from the owner's chunk
  // The owner straggles, so its peer runs out of work first however idle
  // or busy the machine is.
  opt.straggler = {0, 0, 20 * kStragglerScale};
  const AppOutput on = run_app(parse_app("pr"), g, 0, opt, &part);
  EXPECT_EQ(on.ranks, one);
  const uint64_t migrated = on.multi.migrated();
  EXPECT_GT(migrated, 0u);
  opt.migrate = false;
  const AppOutput off = run_app(parse_app("pr"), g, 0, opt, &part);
  EXPECT_EQ(off.ranks, one);
  EXPECT_EQ(off.multi.migrated(), 0u);
}

// A device that owns a sliver of the vertices has almost no frontier and
// relaxes 64-vertex blocks of its peer's into its own replica; what it
// changes reaches the owner by the exchange. In WCC it flattens blocks of
// its peer's forest. Results equal P = 1's.
TEST(MultiDeviceMigration, AnIdleDeviceTakesBlocksOfItsPeer) {
  LoadOptions o;
  o.seed = 3;
  Graph g = load_graph("kron:16", o);
  prepare_graph(parse_app("sssp"), g, true, 3);
  const vid_t n = g.num_vertices(), s = default_source(g);
  const Partition part = partition_at(g, {0, n - 64, n});
  EngineOptions opt;
  opt.devices = 2;
  opt.chunk_copies = true;                        // the blocks it takes are read from the owner's chunk
  opt.delta = 1u << 20;                           // SSSP: one wide bucket, frontiers big enough to share
  opt.straggler = {0, 0, 100 * kStragglerScale};  // the owner pauses before each of its blocks: its peer runs out first
  uint64_t migrated = 0;
  for (App app : {parse_app("bfs"), parse_app("sssp"), parse_app("wcc")})
    // BFS both ways: push steps share frontier blocks, pull steps blocks
    // of the owned range (the peer writes the owner's values and bitmap).
    for (Direction dir : {Direction::kPush, Direction::kPull}) {
      if (app != parse_app("bfs") && dir == Direction::kPull) continue;
      opt.direction = dir;
      const AppOutput on = run_app(app, g, s, opt, &part);
      EXPECT_EQ(on.ints, run_app(app, g, s, EngineOptions{}).ints) << app_name(app) << " " << int(dir);
      if (kMigrationPerRun) {
        EXPECT_GT(on.multi.migrated(), 0u) << app_name(app) << " " << int(dir);
      }
      migrated += on.multi.migrated();
    }
  EXPECT_GT(migrated, 0u);
}

// The worklist protocol on its own: a peer takes blocks from the back only
// while more than the owner keeps are left, the owner takes the rest from
// the front, every block is handed out once, and wait_done returns when the
// peer's blocks are finished.
TEST(MultiDeviceMigration, BoardHandsOutEveryBlockOnce) {
  struct Task {
    int owner = -1;
  };
  struct Acc {
    uint64_t migrated = 0;
    std::vector<std::pair<vid_t, vid_t>> blocks;
  };
  auto fabric = make_thread_fabric(2);
  MigrationBoard<Task> board(*fabric, true);
  board.open(0, Task{0}, 100, 1100, 64, 3);  // 16 blocks, the last 3 kept
  board.open(1, Task{1}, 0, 0, 64);          // nothing of its own
  Acc peer, owner;
  auto work = [](const Task& t, vid_t lo, vid_t hi, Acc& a) {
    EXPECT_EQ(t.owner, 0);
    a.blocks.push_back({lo, hi});
  };
  board.run(1, peer, work);  // device 1 first: it takes all but 3
  EXPECT_EQ(peer.blocks.size(), 13u);
  EXPECT_EQ(peer.migrated, 1100u - 100u - 3u * 64u);
  board.run(0, owner, work);
  EXPECT_EQ(owner.blocks.size(), 3u);
  EXPECT_EQ(owner.migrated, 0u);
  board.wait_done(0);
  std::vector<std::pair<vid_t, vid_t>> all = peer.blocks;
  all.insert(all.end(), owner.blocks.begin(), owner.blocks.end());
  std::sort(all.begin(), all.end());
  vid_t next = 100;
  for (auto [lo, hi] : all) {
    EXPECT_EQ(lo, next);
    next = hi;
  }
  EXPECT_EQ(next, 1100u);
  auto fabric_off = make_thread_fabric(2);
  MigrationBoard<Task> off(*fabric_off, false);
  off.open(0, Task{0}, 0, 640, 64);
  Acc none;
  off.run(1, none, work);
  EXPECT_TRUE(none.blocks.empty());
}

TEST(MultiDeviceDirected, DirectedGraphAndForcedDirections) {
  std::string s;
  for (int i = 0; i < 500; ++i)
    s += std::to_string(i) + " " + std::to_string((i * 37 + 11) % 500) + " " + std::to_string(1 + i % 9) + "\n";
  Graph g = load_graph(testing::write_file("mdir.wel", s), {});
  const Partition part = partition_graph(g, 4);
  for (Exchange x : {Exchange::kBroadcast, Exchange::kPeer})
    for (Direction dir : {Direction::kPush, Direction::kPull, Direction::kAuto}) {
      EngineOptions opt;
      opt.devices = 4;
      opt.direction = dir;
      opt.exchange = x;
      opt.chunk_copies = x == Exchange::kPeer;  // pull steps read the in-edges of the device's chunk only
      for (App app : {parse_app("bfs"), parse_app("sssp"), parse_app("wcc")})
        EXPECT_EQ(run_app(app, g, 0, opt, &part).ints, run_app(app, g, 0, {}).ints)
            << app_name(app) << " " << direction_name(dir) << " " << exchange_name(x);
    }
  EngineOptions lp;
  lp.devices = 3;
  lp.union_find = false;
  Graph u = load_graph("urand:10:2", {});
  const Partition p3 = partition_graph(u, 3);
  EXPECT_EQ(run_app(parse_app("wcc"), u, 0, lp, &p3).ints, reference::wcc(u));
  lp.exchange = Exchange::kPeer;
  EXPECT_EQ(run_app(parse_app("wcc"), u, 0, lp, &p3).ints, reference::wcc(u));
}

// Who reads a vertex: the owners of its neighbours in either direction,
// never its own owner; a vertex with no neighbour elsewhere has no reader.
TEST(MultiDevicePeerExchange, ReadersAreTheOwnersOfNeighbours) {
  // 0 -> 3, 3 -> 6, 1 -> 2 over chunks {0,1,2} {3,4,5} {6,7}
  LoadOptions o;
  Graph g = load_graph(testing::write_file("readers.el", "0 3\n3 6\n1 2\n7 7\n"), o);
  const Partition p = partition_at(g, {0, 3, 6, 8});
  const std::vector<uint64_t> r = reader_masks(g, p);
  EXPECT_EQ(r[0], 0b010u);
  EXPECT_EQ(r[3], 0b101u);
  EXPECT_EQ(r[6], 0b010u);
  EXPECT_EQ(r[1], 0u);
  EXPECT_EQ(r[2], 0u);
  EXPECT_EQ(r[7], 0u);
  for (vid_t v = 0; v < g.num_vertices(); ++v) EXPECT_EQ(r[v] != 0, p.boundary[v] != 0) << v;
  // A gather's readers: the owners of out-neighbours only.
  const std::vector<uint64_t> out = reader_masks(g, p, true);
  EXPECT_EQ(out[0], 0b010u);
  EXPECT_EQ(out[3], 0b100u);
  EXPECT_EQ(out[6], 0u);
}

// Per peer, a grid's records reach only the one or two neighbouring chunks,
// so far fewer bytes travel than by broadcast, for the same answers; the
// bytes of push offers are reported apart and are part of the total.
TEST(MultiDevicePeerExchange, AddressedRecordsCarryFewerBytes) {
  Graph g = load_graph("grid:60x60", {});
  prepare_graph(parse_app("sssp"), g, true, 5);
  const Partition part = partition_graph(g, 6);
  for (App app : {parse_app("bfs"), parse_app("sssp"), parse_app("pr")}) {
    EngineOptions opt;
    opt.devices = 6;
    opt.exchange = Exchange::kBroadcast;
    const AppOutput all = run_app(app, g, 0, opt, &part);
    opt.exchange = Exchange::kPeer;
    const AppOutput peer = run_app(app, g, 0, opt, &part);
    EXPECT_EQ(all.multi.exchange, "broadcast");
    EXPECT_EQ(peer.multi.exchange, "peer");
    EXPECT_LT(peer.multi.bytes(0) * 2, all.multi.bytes(0)) << app_name(app);
    EXPECT_LE(peer.multi.bytes(2), peer.multi.bytes(0)) << app_name(app);
    if (app == parse_app("pr")) {
      EXPECT_EQ(peer.ranks, all.ranks);
    } else {
      EXPECT_GT(peer.multi.bytes(2), 0u) << app_name(app);
      EXPECT_EQ(peer.ints, all.ints) << app_name(app);
    }
  }
}

// Per-edge messages (the baseline the SendAll paper improves on): one record per
// out-edge that crosses devices, every superstep, and the same ranks as
// one device within float rounding, on undirected and directed graphs
// (sink vertices) with devices holding only their chunks.
TEST(MultiDeviceMessages, PerEdgeRecordsSumToTheSameRanks) {
  std::string s;
  for (int i = 0; i < 400; ++i)
    if (i % 7) s += std::to_string(i) + " " + std::to_string((i * 37 + 11) % 400) + "\n";
  const std::string directed = testing::write_file("pr_edges.el", s);
  for (const std::string& spec : {std::string("kron:11"), directed, testing::data_file("facebook_combined.txt")})
    for (int p : {2, 3, 5}) {
      Graph g = load_graph(spec, {});
      const Partition part = partition_graph(g, p);
      EngineOptions opt;
      opt.devices = p;
      opt.chunk_copies = true;
      opt.exchange = Exchange::kPeer;
      const AppOutput sendall = run_app(parse_app("pr"), g, 0, opt, &part);
      opt.messages = Messages::kPerEdge;
      const AppOutput per_edge = run_app(parse_app("pr"), g, 0, opt, &part);
      const std::vector<float> one = run_app(parse_app("pr"), g, 0, EngineOptions{}).ranks;
      const std::string what = spec + " P" + std::to_string(p);
      EXPECT_TRUE(validate_app(per_edge, g, 0, opt).ok) << what;
      ASSERT_EQ(per_edge.ranks.size(), one.size());
      double l1 = 0;
      for (size_t v = 0; v < one.size(); ++v) l1 += std::fabs(double(per_edge.ranks[v]) - double(one[v]));
      EXPECT_LT(l1, 1e-5) << what;
      EXPECT_EQ(per_edge.multi.messages, "per_edge");
      EXPECT_EQ(sendall.multi.messages, "sendall");
      uint64_t crossing = 0;
      for (vid_t u = 0; u < g.num_vertices(); ++u)
        for (eid_t e = g.out().offsets[u]; e < g.out().offsets[u + 1]; ++e)
          crossing += part.owner(u) != part.owner(g.out().targets[e]);
      EXPECT_EQ(per_edge.multi.communicated(), crossing * per_edge.multi.steps.size()) << what;
      // SendAll sends a vertex once to each device owning an out-neighbour:
      // never more than one record per crossing edge, fewer on a graph
      // whose vertices have several neighbours on one device.
      const double sendall_step = double(sendall.multi.communicated()) / double(sendall.multi.steps.size());
      if (spec == directed)
        EXPECT_LE(sendall_step, double(crossing)) << what;
      else
        EXPECT_LT(sendall_step, 0.8 * double(crossing)) << what;
    }
}

}  // namespace
}  // namespace chatty
