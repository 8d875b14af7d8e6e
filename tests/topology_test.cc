// Topology: JSON round trips, the policy on every synthetic box, the probe
// without a GPU, the report, the cache, and bad topology files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/base/json_value.h"
#include "test_util.h"
#include "topology/busy_cores.h"
#include "topology/cuda_driver.h"
#include "topology/library.h"
#include "topology/policy.h"
#include "topology/probe.h"
#include "topology/report.h"

namespace chatty::topo {
namespace {

using chatty::testing::error_of;
using chatty::testing::temp_path;
using chatty::testing::write_file;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(TopologyJson, EverySyntheticBoxRoundTrips) {
  const auto names = synthetic_names();
  EXPECT_EQ(names.size(), 4u);
  for (const std::string& name : names) {
    const Topology t = load_topology(name);
    EXPECT_EQ(t.size(), 8) << name;
    const Topology back = from_json(to_json(t), name);
    EXPECT_EQ(to_json(back), to_json(t)) << name;
    EXPECT_EQ(back.fingerprint(), t.fingerprint());
    for (int i = 0; i < t.size(); ++i)
      for (int j = 0; j < t.size(); ++j) {
        EXPECT_EQ(t.link(i, j).kind == LinkKind::kSelf, i == j);
        EXPECT_EQ(t.link(i, j).peer_access, t.link(j, i).peer_access) << name << " " << i << "," << j;
      }
  }
}

TEST(TopologyJson, DgxOneIsAHybridCubeMesh) {
  const Topology t = load_topology("dgx1-v100");
  for (int i = 0; i < 8; ++i) {
    int lanes = 0, nv_peers = 0;
    for (int j = 0; j < 8; ++j)
      if (i != j && t.link(i, j).kind == LinkKind::kNvLink) lanes += t.link(i, j).nvlinks, ++nv_peers;
    EXPECT_EQ(lanes, 6) << i;     // six NVLink lanes per V100
    EXPECT_EQ(nv_peers, 4) << i;  // its quad plus its twin in the other plane
    EXPECT_EQ(t.link(i, (i + 4) % 8).kind, LinkKind::kNvLink);
  }
}

TEST(Policy, DgxOneUsesNcclAcrossPlanesAndUvaForStatus) {
  const Topology t = load_topology("dgx1-v100");
  const auto all = all_gpus(t);
  const Decision status = decide(t, DataClass::kStatus, 64, all);
  EXPECT_EQ(status.choice, Comm::kUva) << status.reason;
  const Decision big = decide(t, DataClass::kApplication, 64 << 20, all);
  EXPECT_EQ(big.choice, Comm::kNccl) << big.reason;
  EXPECT_THAT(big.reason, HasSubstr("no p2p"));
  // Within one NVLink quad every pair has peer access, so P2P is in play.
  const Decision quad = decide(t, DataClass::kApplication, 16 << 20, {0, 1, 2, 3});
  EXPECT_THAT(quad.reason, Not(HasSubstr("no p2p"))) << quad.reason;
  // Zero-copy wins small messages and loses large ones (the ChattyGraph paper's table 2).
  EXPECT_EQ(decide_pair(t, 4 << 10, 0, 5).choice, Comm::kUva);
  EXPECT_EQ(decide_pair(t, 16 << 20, 0, 5).choice, Comm::kHost);
}

TEST(Policy, PcieBoxNeverUsesP2pWhereAPairHasNone) {
  const Topology t = load_topology("pcie8");
  for (uint64_t bytes : {uint64_t(4) << 10, uint64_t(1) << 20, uint64_t(64) << 20}) {
    EXPECT_NE(decide(t, DataClass::kApplication, bytes, all_gpus(t)).choice, Comm::kP2p);
    for (int a = 0; a < 8; ++a)
      for (int b = 0; b < 8; ++b)
        if (a != b && !t.link(a, b).peer_access) {
          EXPECT_NE(decide_pair(t, bytes, a, b).choice, Comm::kP2p);
        }
  }
  EXPECT_EQ(decide_pair(t, 64 << 20, 0, 1).choice, Comm::kP2p);  // same PCIe switch
  EXPECT_THAT(decide_pair(t, 64 << 20, 0, 4).reason, HasSubstr("cannot access"));
}

TEST(Policy, NvSwitchBoxesUseGpuLinksForLargeExchanges) {
  for (const char* name : {"dgx-a100", "dgx-h100"}) {
    const Topology t = load_topology(name);
    const Decision d = decide(t, DataClass::kApplication, 64 << 20, all_gpus(t));
    EXPECT_TRUE(d.choice == Comm::kNccl || d.choice == Comm::kP2p) << name << ": " << d.reason;
    EXPECT_EQ(decide(t, DataClass::kStatus, 64, all_gpus(t)).choice, Comm::kUva) << name;
    EXPECT_EQ(decide(t, DataClass::kStructure, uint64_t(1) << 30, all_gpus(t)).choice, Comm::kCopyIn);
    // A chunk larger than GPU memory stays in host memory (out of core).
    EXPECT_EQ(decide(t, DataClass::kStructure, uint64_t(200) << 30, all_gpus(t)).choice, Comm::kUva);
  }
}

TEST(Policy, VirtualDevicesOnOneGpuCannotUseNccl) {
  const Topology t = load_topology("dgx-h100");
  const Decision d = decide(t, DataClass::kApplication, 16 << 20, {0, 0, 0, 0});
  EXPECT_NE(d.choice, Comm::kNccl);
  EXPECT_THAT(d.reason, HasSubstr("share a GPU"));
  EXPECT_THAT(error_of([&] { decide(t, DataClass::kStatus, 8, {0, 9}); }), HasSubstr("GPU 9"));
}

TEST(Policy, CrossoverComesFromTheFigures) {
  // Make P2P slow on one box: the policy must move away from it.
  Topology t = load_topology("dgx-a100");
  for (Link& l : t.links)
    if (l.kind != LinkKind::kSelf) l.p2p = Cost{500, 0.5, {}};
  t.nccl = Cost{};
  const Decision d = decide(t, DataClass::kApplication, 64 << 20, all_gpus(t));
  EXPECT_NE(d.choice, Comm::kP2p) << d.reason;
}

TEST(Probe, WithoutAGpuReportsTheHostAndTheCpuBackend) {
  std::string why;
  const bool driver = cu::load(&why) != nullptr;
  const Topology t = probe();
  EXPECT_GE(t.host.cores, 1);
  EXPECT_GE(t.host.sockets, 1);
  if (!driver) {
    EXPECT_EQ(t.size(), 0);
    EXPECT_THAT(t.note, HasSubstr("CPU backend"));
    EXPECT_THAT(render_text(t, {}), HasSubstr("CPU backend"));
    EXPECT_THAT(error_of([&] {
                  Topology copy = t;
                  run_link_benchmarks(copy, false);
                }),
                HasSubstr("--bench needs a GPU"));
  } else {
    EXPECT_GT(t.size(), 0);
  }
}

TEST(Probe, EstimatesFillUnmeasuredLinks) {
  Topology t = load_topology("pcie8");
  for (Gpu& g : t.gpus) g.host_copy = g.zero_copy = Cost{};
  for (Link& l : t.links) l.p2p = Cost{};
  t.nccl = Cost{};
  estimate_costs(t);
  EXPECT_THAT(t.note, HasSubstr("estimated"));
  EXPECT_TRUE(t.gpus[0].host_copy.known());
  EXPECT_TRUE(t.link(0, 1).p2p.known());
  EXPECT_FALSE(t.link(0, 4).p2p.known());  // still no peer access across sockets
  EXPECT_TRUE(t.nccl.known());
}

TEST(Report, TextAndJson) {
  const Topology t = load_topology("dgx1-v100");
  const std::string text = render_text(t, {});
  for (const char* want : {"GPU7", "NV2", "SYS", "transport policy", "status", "nccl", "uva", "async-copy"})
    EXPECT_THAT(text, HasSubstr(want));
  const JsonValue j = parse_json(render_json(t, {}));
  EXPECT_EQ(j.find("policy")->items().size(), 7u);
  EXPECT_EQ(j.find("topology")->find("gpus")->items().size(), 8u);
  for (const JsonValue& d : j.find("policy")->items()) EXPECT_FALSE(d.find("reason")->as_string().empty());
}

TEST(Cache, ReusedOnlyForTheSameHardware) {
  Topology measured = load_topology("pcie8");
  measured.link(0, 1).p2p = Cost{7, 12.5, {{4096, 7.0}, {1 << 20, 90.0}}};
  const std::string path = temp_path("topo_cache.json");
  save_cache(measured, path);
  Topology probed = load_topology("pcie8");
  std::string why;
  EXPECT_TRUE(apply_cache(probed, path, &why)) << why;
  EXPECT_DOUBLE_EQ(probed.link(0, 1).p2p.bandwidth_gbps, 12.5);
  Topology other = load_topology("dgx-a100");
  EXPECT_FALSE(apply_cache(other, path, &why));
  EXPECT_THAT(why, HasSubstr("other hardware"));
  EXPECT_FALSE(apply_cache(other, temp_path("missing.json"), &why));
}

TEST(TopologyJson, BadFilesAreClearErrors) {
  EXPECT_THAT(error_of([] { load_topology("no-such-box"); }), HasSubstr("dgx1-v100"));
  EXPECT_THAT(error_of([] { load_topology(write_file("t1.json", "{not json")); }), HasSubstr("bad topology JSON"));
  EXPECT_THAT(error_of([] { load_topology(write_file("t2.json", "{\"schema\":\"x\"}")); }),
              HasSubstr("not a ChattyGraph topology"));
  EXPECT_THAT(error_of([] {
                load_topology(write_file("t3.json",
                                         "{\"schema\":\"chattygraph-topology/1\",\"gpus\":[{\"index\":0}],"
                                         "\"links\":[{\"from\":0,\"to\":3}]}"));
              }),
              HasSubstr("names no pair"));
}

// The busy cores: /proc/stat's per-CPU lines (the summary line and other
// lines ignored), and a CPU busy for more than half the window between two
// samples, among the CPUs the process may use.
TEST(BusyCores, ProcStatLinesAndTheThreeQuartersRule) {
  const std::string before =
      "cpu  300 0 100 600 0 0 0 0 0 0\n"
      "cpu0 100 0 0 300 0 0 0 0 0 0\n"
      "cpu1 100 0 50 250 0 0 0 0 0 0\n"
      "cpu2 100 0 50 50 0 0 0 0 0 0\n"
      "cpu3 100 0 0 100 0 0 0 0 0 0\n"
      "intr 12345 0 0\n";
  const std::string after =
      "cpu  600 0 100 900 0 0 0 0 0 0\n"
      "cpu0 190 0 0 310 0 0 0 0 0 0\n"     // 90 of 100 ticks busy
      "cpu1 110 0 50 340 0 0 0 0 0 0\n"    // 10 of 100
      "cpu2 175 0 50 125 0 0 0 0 0 0\n"    // 75 of 100: not more than three quarters
      "cpu3 110 0 0 110 0 0 0 80 80 0\n";  // 80 stolen by the hypervisor, 80 a guest's (in user): 10 of 20
  const std::vector<CpuTimes> b = parse_proc_stat(before), a = parse_proc_stat(after);
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[1].cpu, 1);
  EXPECT_EQ(b[1].total, 400u);
  EXPECT_EQ(b[1].idle, 250u);
  EXPECT_EQ(busy_cpus(b, a, {}), std::vector<int>{0});
  EXPECT_TRUE(busy_cpus(b, a, {1, 2}).empty()) << "cpu0 is not this process's";
  EXPECT_EQ(busy_cpus(b, parse_proc_stat("cpu0 500 0 0 300 0 0 0 0 0 0\ncpu1 100 0 50 250 0 0 0 0 0 0\n"), {}),
            std::vector<int>{0})
      << "a CPU whose times did not move, or that is gone, counts as idle";
  // Busy in both windows: held by other work; in one only: a passing process.
  EXPECT_EQ(busy_in_both({0, 2}, {2, 3}), 1);
  EXPECT_EQ(busy_in_both({0}, {}), 0);
  EXPECT_GE(busy_cores_now(), 0);
}

}  // namespace
}  // namespace chatty::topo
