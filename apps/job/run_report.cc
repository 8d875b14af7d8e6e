#include "apps/job/run_report.h"

#include <string>

#include "cpu_cluster/cluster.h"
#include "runtime/base/status.h"

namespace chatty::job {

namespace {

// An n x n matrix as JSON rows: [[at(0, 0), at(0, 1), ...], ...].
template <typename At>
JsonValue json_matrix(int n, At at) {
  JsonValue rows = JsonValue::array();
  for (int a = 0; a < n; ++a) {
    JsonValue& row = rows.push(JsonValue::array());
    for (int b = 0; b < n; ++b) row.push(at(a, b));
  }
  return rows;
}

}  // namespace

void Report::say(const char* fmt, ...) {
  if (!to_) return;
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(to_, fmt, ap);
  va_end(ap);
}

void report_multi(Report& r, const AppOutput& out) {
  const MultiStats& ms = out.multi;
  const double ratio = ms.updated() ? double(ms.communicated()) / double(ms.updated()) : 0.0;
  if (ms.exchange == "none")  // an operator app: devices read their peers' rows in place
    r.say("exchange    %s\n", ms.transport.c_str());
  else
    r.say(
        "exchange    %s, %s, %s; %lu boundary records for %lu updates (%.1f %%); %.1f MB application, %.3f MB status\n",
        ms.transport.c_str(), ms.exchange.c_str(), ms.messages.c_str(), (unsigned long)ms.communicated(),
        (unsigned long)ms.updated(), 100 * ratio, double(ms.bytes(0)) / 1e6, double(ms.bytes(1)) / 1e6);
  if (out.backend == Backend::kCpu && ms.bytes(2))
    r.say("            of the application data %.1f MB push offers, %.1f MB updates of owned vertices\n",
          double(ms.bytes(2)) / 1e6, double(ms.bytes(0) - ms.bytes(2)) / 1e6);
  if (ms.migrated())  // vertex computations (a WCC vertex is flattened several times, so no share of updates)
    r.say("migration   %lu vertex computations run by a peer of the vertex's owner\n", (unsigned long)ms.migrated());
  if (out.backend == Backend::kCpu && ms.setup_seconds > 0)
    r.say(
        "setup       %.3f s the ranks' windows (fabric, transport) and what each device exposes to the other ranks "
        "(migration), not in the compute time\n",
        ms.setup_seconds);
  if (ms.collect_seconds > 0)
    r.say("collect     %.3f s gathering every rank's results to rank 0, not in the compute time\n", ms.collect_seconds);
  if (out.backend == Backend::kCuda) {
    r.say("gpus       ");
    for (int gpu : out.gpu_of) r.say(" %d", gpu);
    r.say(" (GPU of each device; setup %.3f s, not in the compute time)\n", ms.setup_seconds);
  }
  r.say("time split ");
  for (int p = 0; p < kPhases; ++p) r.say(" %s %.4f s", phase_name(p), ms.seconds(p));
  r.say("\n");
  for (size_t d = 0; d < ms.device_seconds.size(); ++d) {
    r.say("  device %zu", d);
    for (int p = 0; p < kPhases; ++p) r.say(" %s %.4f s", phase_name(p), ms.device_seconds[d][size_t(p)]);
    r.say("\n");
  }
}

void write_trace(const AppOutput& out, const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "w");
  CHATTY_CHECK(f, path + ": cannot write");
  const MultiStats& ms = out.multi;
  std::fprintf(f, "step,direction,updated,edges,communicated,application_bytes,status_bytes");
  for (int p = 0; p < kPhases; ++p) std::fprintf(f, ",%s_s", phase_name(p));
  std::fprintf(f, ",supersteps\n");  // a row per sync: `step` is its first superstep
  uint64_t first = 0;
  for (size_t i = 0; i < ms.steps.size(); ++i) {
    const MultiStep& s = ms.steps[i];
    std::fprintf(f, "%lu,%s,%lu,%lu,%lu,%lu,%lu", (unsigned long)first, s.pull ? "pull" : "push",
                 (unsigned long)s.updated, (unsigned long)s.edges, (unsigned long)s.communicated,
                 (unsigned long)s.app_bytes, (unsigned long)s.status_bytes);
    for (int p = 0; p < kPhases; ++p) std::fprintf(f, ",%.6f", s.seconds[p]);
    std::fprintf(f, ",%lu\n", (unsigned long)s.supersteps);
    first += s.supersteps;
  }
  CHATTY_CHECK(std::fclose(f) == 0, path + ": write failed");
}

JsonValue multi_json(const AppOutput& out, double partition_s, int local) {
  const MultiStats& ms = out.multi;
  JsonObject x;
  x.add("transport", ms.transport).add("partition_s", partition_s).add("setup_s", ms.setup_seconds);
  x.add("collect_s", ms.collect_seconds);
  x.add("updated", ms.updated()).add("communicated", ms.communicated()).add("edges_examined", ms.edges());
  x.add("communicated_ratio", ms.updated() ? double(ms.communicated()) / double(ms.updated()) : 0.0);
  x.add("bytes_structure", ms.structure_bytes).add("bytes_application", ms.bytes(0));
  x.add("bytes_status", ms.bytes(1)).add("migrated", ms.migrated()).add("exchange", ms.exchange);
  x.add("messages", ms.messages);
  if (!ms.gather.empty()) x.add("cpu_gather", ms.gather);
  if (out.backend == Backend::kCpu)  // GPU compaction does not tell offers from updates
    x.add("bytes_offers", ms.bytes(2)).add("bytes_updates", ms.bytes(0) - ms.bytes(2));
  for (int p = 0; p < kPhases; ++p) x.add(std::string(phase_name(p)) + "_s", ms.seconds(p));
  JsonValue per_device = JsonValue::array();  // per device: {"merge_s": .., ...}
  for (size_t d = 0; d < ms.device_seconds.size(); ++d) {
    JsonObject dev;
    for (int p = 0; p < kPhases; ++p) dev.add(std::string(phase_name(p)) + "_s", ms.device_seconds[d][size_t(p)]);
    per_device.push(dev.value());
  }
  x.add("device_seconds", per_device).add("device_migrated", ms.device_migrated);
  // Sender by receiver: devices, and ranks of `local` devices each.
  const int D = ms.devices, R = D / local;
  auto matrix = [&](const std::vector<uint64_t>& m, int group, uint64_t scale) {
    return json_matrix(D / group, [&](int a, int b) {
      uint64_t sum = 0;
      for (int i = a * group; i < (a + 1) * group && size_t(i * D) < m.size(); ++i)
        for (int j = b * group; j < (b + 1) * group; ++j) sum += m[size_t(i * D + j)];
      return sum * scale;
    });
  };
  const uint64_t item = ms.item_bytes;
  x.add("pair_bytes", matrix(ms.pair_records, 1, item)).add("pair_records", matrix(ms.pair_records, 1, 1));
  x.add("pair_batches", matrix(ms.pair_batches, 1, 1));
  if (R > 1) {
    std::vector<double> per_rank(size_t(R), 0.0);  // vertices each rank's devices computed for their peers
    std::vector<double> blocks(size_t(R), 0.0);    // of those, blocks claimed from other ranks
    for (size_t d = 0; d < ms.device_migrated.size(); ++d) per_rank[d / size_t(local)] += double(ms.device_migrated[d]);
    for (size_t d = 0; d < ms.device_migrated_blocks.size(); ++d)
      blocks[d / size_t(local)] += double(ms.device_migrated_blocks[d]);
    x.add("rank_migrated", per_rank).add("rank_migrated_blocks", blocks);
  }
  if (R > 1)
    x.add("rank_pair_bytes", matrix(ms.pair_records, local, item))
        .add("rank_pair_records", matrix(ms.pair_records, local, 1))
        .add("rank_pair_batches", matrix(ms.pair_batches, local, 1));
  if (R > 1 && ms.rank_ops.size() == size_t(R) * size_t(R) * kMpiOps) {
    JsonObject ops;  // per kind of operation: origin rank by target rank
    for (int op = 0; op < kMpiOps; ++op)
      ops.add(mpi_op_name(MpiOp(op)), json_matrix(R, [&](int a, int b) {
                return ms.rank_ops[(size_t(a) * size_t(R) + size_t(b)) * kMpiOps + size_t(op)];
              }));
    x.add("rank_mpi_ops", ops.value());
  }
  return x.value();
}

}  // namespace chatty::job
