#include "apps/job/run_setup.h"

#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "apps/job/rank_graph.h"
#include "comm/transport.h"
#include "comm/transport_table.h"
#include "cpu_cluster/cluster.h"
#include "runtime/base/hash.h"
#include "runtime/base/status.h"
#include "topology/busy_cores.h"

namespace chatty::job {

namespace {

std::string apps_with_source() {
  std::string s;
  for (App a : all_apps())
    if (app_spec(a).needs_source) s += (s.empty() ? "" : " and ") + std::string(app_name(a));
  return s;
}

// Opens path for appending, as writing it later will, and removes what
// that created: no output is truncated by the check. A symbolic link to a
// file not there yet stays (the file it named is what is removed).
void check_writable(const std::string& path, const char* flag) {
  if (path.empty()) return;
  struct stat st {};
  struct stat link {};
  const bool existed = ::stat(path.c_str(), &st) == 0;
  const bool linked = ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
  CHATTY_CHECK(!existed || !S_ISDIR(st.st_mode), std::string(flag) + "=" + path + ": is a directory");
  // Opening a FIFO would wait for a reader, and closing it end the
  // reader's input before the values come: a device or FIFO is asked.
  if (existed && !S_ISREG(st.st_mode)) {
    if (::access(path.c_str(), W_OK) != 0)
      throw Error(std::string(flag) + "=" + path + ": cannot write: " + std::strerror(errno));
    return;
  }
  FILE* f = std::fopen(path.c_str(), "a");
  if (!f) throw Error(std::string(flag) + "=" + path + ": cannot write: " + std::strerror(errno));
  std::fclose(f);
  if (existed) return;
  if (!linked) {
    std::remove(path.c_str());
  } else if (char* created = ::realpath(path.c_str(), nullptr)) {
    std::remove(created);
    std::free(created);
  }
}

// --sources: N random ones; for an app that runs from all at once also
// "all" or a list of input ids.
void parse_sources(RunSetup& s, const RunOptions& f) {
  if (!f.was_given("sources")) return;
  const std::string& v = f.sources;
  const bool at_once = app_spec(s.app).sources_at_once;
  if (v == "all" || v.find(',') != std::string::npos) {
    CHATTY_CHECK(at_once,
                 "--sources=" + v + ": " + app_name(s.app) +
                     " takes a count of random sources (all and lists are for apps that sum over sources: bc)");
    if (v == "all") {
      s.all_sources = true;
      return;
    }
  }
  // A list is anything with a comma; a trailing one is allowed, so that a
  // list of one id (5,) is told from a count (5).
  const size_t end = !v.empty() && v.back() == ',' ? v.size() - 1 : v.size();
  size_t at = 0;
  while (at <= end) {
    const size_t comma = std::min(v.find(',', at), end);
    const std::string item = v.substr(at, comma - at);
    const std::optional<uint64_t> x = parse_id(item);
    CHATTY_CHECK(x.has_value(), "--sources must be a count >= 1" +
                                    std::string(at_once ? ", all, or a list of vertex ids (one id: 5,)" : "") +
                                    " (got '" + v + "')");
    s.source_list.push_back(*x);
    at = comma + 1;
  }
  if (s.source_list.size() == 1 && v.find(',') == std::string::npos) {  // a count
    CHATTY_CHECK(s.source_list[0] >= 1 && s.source_list[0] <= (1ull << 31), "--sources must be at least 1");
    s.sources = int(s.source_list[0]);
    s.source_list.clear();
  }
}

Reorder parse_reorder(const std::string& s) {
  if (s == "auto") return Reorder::kAuto;
  if (s == "degree") return Reorder::kDegree;
  if (s == "bfs") return Reorder::kBfs;
  if (s == "none") return Reorder::kNone;
  throw Error("--reorder must be auto, degree, bfs or none (got '" + s + "')");
}

// A fingerprint of this process's executable file, read whole (a few ms):
// ranks that run the same flags on different builds would pair up
// different sequences of collectives and wait for good. 0 where the file
// cannot be read, so such ranks are not told apart by it.
uint64_t executable_fingerprint() {
  std::FILE* f = std::fopen("/proc/self/exe", "rb");
  if (!f) return 0;
  std::vector<uint64_t> words(size_t(1) << 17);
  uint64_t h = 0;
  size_t got;
  while ((got = std::fread(words.data(), 1, words.size() * sizeof(uint64_t), f)) > 0) {
    std::memset(reinterpret_cast<char*>(words.data()) + got, 0, words.size() * sizeof(uint64_t) - got);
    for (size_t i = 0; i < (got + 7) / 8; ++i) h = hash2(h, words[i]);
    h = hash2(h, got);
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  return failed ? 0 : h;
}

// Ranks run one command (SPMD): a flag set differently on some rank (an
// MPMD launch, a stale script on one node) would pair collectives wrongly
// (a hang) or mix answers. Every rank hashes its flags; where they differ,
// one collective per flag, in the same order on every rank, finds the
// first that does, and every rank throws the same refusal.
void agree_on_command(const RunOptions& o) {
  // What may differ by node: the path of a node's copy of the graph (the
  // ranks then agree on what they loaded), its thread count and NUMA
  // binding, and rank 0's own files.
  static const std::set<std::string> kPerNode = {"graph", "threads", "numa", "output", "trace"};
  struct Named {
    std::string name, current_value;
  };
  std::vector<Named> flags;
  for (const OptionInfo& i : run_option_table())
    if (!kPerNode.count(i.name)) flags.push_back({i.name, option_text(o, i.name)});
  // Equal texts hash alike under one C++ library (as the graph's fingerprint
  // assumes); ranks whose library differs run another build anyway.
  const std::hash<std::string> text_hash;
  const uint64_t build = executable_fingerprint();
  uint64_t all = hash2(build, flags.size());
  for (const auto& f : flags) all = hash2(all, text_hash(f.name + "=" + f.current_value));
  auto ranks_text = [](const std::vector<int>& r) { return ranks_named(r) + (r.size() > 1 ? " run" : " runs"); };
  if (cluster_ranks_differing(all).empty()) return;
  const std::string other_build =
      " a different chatty build from rank 0's: every rank must run the same binary (or one built alike)";
  if (const std::vector<int> d = cluster_ranks_differing(build); !d.empty())
    throw AgreedError(ranks_text(d) + other_build);
  if (const std::vector<int> d = cluster_ranks_differing(flags.size()); !d.empty())
    throw AgreedError(ranks_text(d) + other_build);
  for (const auto& f : flags) {  // the same collectives, in the same order, on every rank
    if (const std::vector<int> d = cluster_ranks_differing(text_hash(f.name)); !d.empty())
      throw AgreedError(ranks_text(d) + other_build);
    if (const std::vector<int> d = cluster_ranks_differing(text_hash(f.current_value)); !d.empty())
      throw AgreedError(ranks_text(d) + " with a different --" + f.name + " from rank 0's (--" + f.name + "=" +
                        f.current_value + " on rank 0): every rank must run the same command");
  }
  throw AgreedError("the ranks' commands differ, but no single flag does (internal error)");
}

// A rank's threads, where neither --threads nor OMP_NUM_THREADS says: its
// share of its node's CPUs (OpenMP would give every rank a thread per CPU
// it may run on, though the node's other ranks run there too). Rank 0
// says where the launcher bound its node's ranks to fewer CPUs than it
// has: OpenMPI binds each of 2 ranks to one core by default, so that on a
// 64-core box `mpirun -np 2` runs 2 threads in all.
void take_node_cpus(const ClusterPlace& rank, const RunOptions& f, int& threads) {
  const char* omp_threads = std::getenv("OMP_NUM_THREADS");
  const NodeCpus& cpus = rank.cpus;
  if (f.threads == 0 && (!omp_threads || !*omp_threads)) {
    omp_set_num_threads(cpus.share);
    threads = cpus.share;
  }
  if (rank.rank == 0 && cpus.used > 0 && cpus.used < cpus.launcher)
    std::fprintf(stderr,
                 "chatty: warning: the launcher bound this node's %d rank%s to %d of the %d CPUs it may use; give "
                 "them the rest (OpenMPI: --bind-to none, or --map-by slot:PE=<cores a rank>; MPICH: -bind-to none; "
                 "Slurm: --cpus-per-task)\n",
                 cpus.ranks, cpus.ranks > 1 ? "s" : "", cpus.used, cpus.launcher);
}

}  // namespace

int apply_threads(int threads) {
  CHATTY_CHECK(threads >= 0, "--threads must be >= 0");
  // Far more threads than cores only adds barriers that spin while the
  // threads holding the cores wait for them.
  const int cap = 4 * omp_get_num_procs();
  if (threads > cap) {
    std::fprintf(stderr, "chatty: warning: --threads=%d is more than 4x the %d cores: using %d\n", threads,
                 omp_get_num_procs(), cap);
    threads = cap;
  }
  if (threads > 0) omp_set_num_threads(threads);
  return threads;
}

int leave_busy_cores_out(int threads) {
  const char* omp_threads = std::getenv("OMP_NUM_THREADS");
  if (threads != 0 || (omp_threads && *omp_threads)) return 0;
  const int procs = omp_get_num_procs();
  const int busy = procs > 1 ? std::min(busy_cores_now(), procs - 1) : 0;
  if (busy > 0) omp_set_num_threads(procs - busy);
  return busy;
}

RunSetup check_run_options(const RunOptions& f) {
  RunSetup s;
  s.graph = f.graph;
  as_usage([&] {
    s.app = parse_app(f.app);
    s.reorder = parse_reorder(f.reorder);
    CHATTY_CHECK(f.backend == "auto" || f.backend == "cpu" || f.backend == "cuda",
                 "unknown --backend '" + f.backend + "' (auto, cpu or cuda)");
    CHATTY_CHECK(f.repeat >= 1, "--repeat must be at least 1");
    // A flag given must apply: its unset value is not a choice.
    const bool source_given = f.was_given("source");
    const bool sources_given = f.was_given("sources");
    if (source_given) {
      s.source = parse_id(f.source);
      CHATTY_CHECK(
          s.source.has_value(),
          "--source must be a vertex id of the input, a whole number from 0 to 2^64-1 (got '" + f.source + "')");
    }
    parse_sources(s, f);
    s.pairs = parse_pair_request(f, s.app);
    CHATTY_CHECK(!source_given || s.has_source(),
                 std::string("--source: ") + app_name(s.app) + " has no source (" + apps_with_source() + " do)");
    if (sources_given) {
      CHATTY_CHECK(s.has_source(),
                   std::string("--sources: ") + app_name(s.app) + " has no source (" + apps_with_source() + " do)");
      CHATTY_CHECK(!source_given, "--source and --sources exclude each other (one fixed source, or N random ones)");
      CHATTY_CHECK(f.output.empty() || app_spec(s.app).sources_at_once,
                   "--output writes one result: with --sources, give one --source instead");
    }
    const int threads = apply_threads(f.threads);
    s.threads = omp_get_max_threads();
    s.eopt = engine_options(f);
    s.eopt.threads = threads;
    // Each device has a thread of its own that drives it.
    CHATTY_CHECK(s.eopt.devices <= omp_get_thread_limit(),
                 "--devices=" + std::to_string(s.eopt.devices) + " needs a thread to drive each device, and " +
                     "OMP_THREAD_LIMIT allows " + std::to_string(omp_get_thread_limit()));
    s.eopt.gpu_lb = parse_gpu_lb(f.gpu_lb);
    s.eopt.gpu_gather = parse_gpu_gather(f.gpu_gather);
    s.eopt.gpu_bucket_min = parse_gpu_bucket_min(f.gpu_bucket_min);
    s.eopt.gpu_tc = parse_gpu_tc(f.gpu_tc);
    CHATTY_CHECK(f.gpu_steps_per_sync >= 1 && f.gpu_steps_per_sync <= 1024, "--gpu_steps_per_sync must be 1..1024");
    s.eopt.gpu_steps_per_sync = f.gpu_steps_per_sync;
    s.eopt.gpu_wave = f.gpu_wave;
    s.eopt.cpu_wave = f.cpu_wave;
    s.eopt.cpu_gather = parse_cpu_gather(f.cpu_gather);
    s.lopt = load_options(f);
  });
  // The watchdogs read each other once a second: a shorter deadline would
  // name live ranks.
  as_usage([&] {
    CHATTY_CHECK(f.rank_timeout == 0 || f.rank_timeout >= 1,
                 "--rank_timeout must be 0 (never) or at least 1 (seconds): ranks look at each other once a second");
  });
  const ClusterPlace* rank = cluster_start(s.eopt.devices, s.eopt.net, f.communicator);
  if (rank) cluster_watch(f.rank_timeout);
  if (rank && rank->ranks > 1) agree_on_command(f);
  // A rank takes its share of the node's cores; only a lone process looks
  // for busy ones, whose probe takes 80 ms.
  if (rank) {
    take_node_cpus(*rank, f, s.threads);
  } else {
    s.busy_cores = leave_busy_cores_out(s.eopt.threads);
    s.threads = omp_get_max_threads();
  }
  // Ranks agree on one backend: a rank without a GPU fails all of them
  // (--backend=cuda) or takes them all to the CPU (auto).
  std::string refused;
  try {
    s.choice = f.backend == "cpu" ? select_backend("cpu", GpuInventory{}) : select_backend(f.backend, probe_gpus());
  } catch (const Error& e) {
    refused = e.what();
  }
  // Each rank reads the graph itself: a stream can be read by one of them.
  struct stat st {};
  // A rank other than rank 0 has no standard input of the user's (the
  // launcher gives it /dev/null): its names for it are refused by name.
  const bool stdin_named =
      f.graph == "-" || f.graph == "/dev/stdin" || f.graph == "/dev/fd/0" || f.graph == "/proc/self/fd/0";
  const bool stream = stdin_named || (::stat(f.graph.c_str(), &st) == 0 && S_ISFIFO(st.st_mode));
  if (rank && rank->ranks > 1 && stream && refused.empty())
    refused = "--graph=" + f.graph +
              ": every rank reads the graph itself, and a pipe or standard input can be read by only one (write "
              "it to a file on a shared file system, or convert it to .cgr)";
  // An app without a GPU kernel runs on the CPU where the choice was ours.
  if (refused.empty() && s.choice.backend == Backend::kCuda && !app_spec(s.app).run_gpu && f.backend == "auto")
    s.choice = {Backend::kCpu, std::string("cpu (auto): ") + app_name(s.app) + " has no GPU kernel yet"};
  if (rank) cluster_throw_agreed(refused);
  CHATTY_CHECK(refused.empty(), refused);
  if (rank && cluster_max(s.choice.backend == Backend::kCpu ? 1.0 : 0.0) > 0 && s.choice.backend != Backend::kCpu)
    s.choice = {Backend::kCpu, "cpu (auto): another rank has no usable GPU"};
  CHATTY_CHECK(rank || s.eopt.net != Net::kVerbs, "--net=verbs connects ranks: start them with mpirun");
  if (rank && s.eopt.net == Net::kVerbs) {  // agreed: a rank of its own aborting may lose every rank's line
    const RdmaProbe rdma = probe_rdma();
    cluster_throw_agreed(rdma.devices.empty() ? "--net=verbs: " + rdma.reason + " (--net=mpi runs without one)" : "");
  }
  s.validate = f.validate;
  s.output = f.output;
  s.trace = f.trace;
  if (rank) {
    // --devices counts a rank's devices; the run's are every rank's.
    s.eopt.devices = rank->devices();
    if (rank->rank != 0) {  // rank 0 reports, validates and writes for all
      s.validate = false, s.output.clear(), s.trace.clear();
      CHATTY_CHECK(std::freopen("/dev/null", "w", stdout), "cannot silence rank " + std::to_string(rank->rank));
    }
  }
  s.eopt.backend = s.choice.backend;
  CHATTY_CHECK(s.choice.backend != Backend::kCuda || s.eopt.exchange != Exchange::kPeer,
               "--exchange=peer runs on host devices; GPU devices broadcast (use auto or broadcast)");
  CHATTY_CHECK(s.eopt.messages != Messages::kPerEdge || app_spec(s.app).messages.sums,
               std::string("--messages=per_edge: ") + app_name(s.app) +
                   " does not sum what its in-neighbours send (its messages travel once per reading device)");
  CHATTY_CHECK(s.choice.backend != Backend::kCuda || s.eopt.straggler.pause_us == 0,
               "--straggler slows host devices; GPU devices do not migrate work (use --backend=cpu)");
  check_straggler(s.eopt.straggler, s.eopt.devices);
  CHATTY_CHECK(s.choice.backend != Backend::kCuda || s.eopt.messages != Messages::kPerEdge,
               "--messages=per_edge runs on host devices; GPU devices send each value once (use auto or sendall)");
  if (rank) {
    check_serves(s.eopt.comm, World::kRanks);
    const TransportInfo* t = find_transport(s.eopt.comm, World::kRanks);
    // The staging hands received records up from where they land.
    CHATTY_CHECK(s.choice.backend != Backend::kCuda || !t || t->repoints_slots,
                 std::string("--comm=") + comm_name(s.eopt.comm) +
                     ": GPU devices in ranks exchange through transports that deliver into host memory "
                     "(mpi_ring (auto) or mpi_put)");
  } else if (s.choice.backend == Backend::kCuda) {
    validate_gpu_comm(s.eopt.comm, place_devices(s.eopt.devices, 1 << 20));
  } else {
    check_serves(s.eopt.comm, World::kHostDevices);
  }
  const bool ring = s.eopt.comm == Comm::kAuto || s.eopt.comm == Comm::kMpiRing;
  if (rank && rank->ranks > 1 && ring && s.eopt.net != Net::kVerbs) {
    if (f.small_bytes == "auto" || f.small_bytes == "measure") {  // a collective, before any loading
      const SwitchPoint sp = cluster_switch_point(f.small_bytes == "measure");
      s.eopt.small_bytes = sp.bytes;
      s.switch_how = sp.how;
    } else {
      s.switch_how = "--small_bytes";
    }
  }
  CHATTY_CHECK(s.eopt.ring_bytes >= 4096 && s.eopt.ring_bytes <= (size_t(1) << 30),
               "--ring_bytes must be 4096..2^30 (got " + std::to_string(s.eopt.ring_bytes) + ")");
  CHATTY_CHECK(s.eopt.small_bytes <= (size_t(1) << 30),
               "--small_bytes must be 0..2^30 (got " + std::to_string(s.eopt.small_bytes) + ")");
  CHATTY_CHECK(s.eopt.batch_bytes >= 64 && s.eopt.batch_bytes <= s.eopt.ring_bytes / 2,
               "--batch_bytes must be 64..ring_bytes/2 (got " + std::to_string(s.eopt.batch_bytes) + ")");
  s.lopt.weights =
      app_spec(s.app).needs_weights || app_spec(s.app).reads_weights ? WeightUse::kNeeded : WeightUse::kIgnored;
  // Only rank 0 writes: its error reaches the others before they load.
  agreed([&] {
    check_writable(s.output, "--output");
    check_writable(s.trace, "--trace");
  });
  s.repeat = f.repeat;
  s.json = f.json;
  s.quiet = f.quiet || (rank && rank->rank != 0);  // --json sends the report to stderr, which ranks keep
  s.default_weights = !f.no_default_weights;
  s.seed = f.seed;
  return s;
}

}  // namespace chatty::job
