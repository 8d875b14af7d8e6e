// chatty: the ChattyGraph command line.

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "apps/cli/commands.h"
#include "apps/cli/flags.h"
#include "apps/cli/help.h"
#include "cpu_cluster/cluster.h"
#include "runtime/base/status.h"
#include "runtime/base/warm_heap.h"

DECLARE_double(rank_timeout);

namespace {

// An error met before the ranks have started (a flag's error, a usage
// error). Under a launcher every rank usually runs the same command and
// meets it: rank 0 says it, and once every rank has come with an error of
// its own (cluster_fail_together) each exits with the code, so that the
// job ends as ranks that finished (OpenMPI's mpirun still notes a
// non-zero exit; its --quiet drops that), not through MPI_Abort's banner.
// A rank whose error differs from rank 0's names itself. A rank whose
// error the others do not share (an MPMD launch with other flags) ends the
// job through MPI after a moment (the others would wait for it in a
// collective; under MPICH, in MPI_Init), saying it as its own. Only `run`
// starts ranks: the other commands' ranks meet once, at the start, and
// each says its own errors. The moment is shorter than the others' start
// deadline, which would otherwise end the job first with a line that
// names no cause.
bool g_runs = false;         // the command is `run`
double g_start_timeout = 0;  // the ranks' start deadline (0: none)

int say_error(const std::string& what, int code) {
  const int rank = chatty::cluster() || !g_runs ? -1 : chatty::launched_rank();
  if (rank < 0) {
    std::fprintf(stderr, "chatty: error: %s\n", what.c_str());
    return code;
  }
  if (rank == 0) std::fprintf(stderr, "chatty: error: %s\n", what.c_str());
  std::fflush(stderr);
  const double moment = g_start_timeout > 0 ? std::min(3.0, g_start_timeout / 2) : 3.0;
  const chatty::FailedTogether together = chatty::cluster_fail_together(what, moment);
  if (rank > 0 && together != chatty::FailedTogether::kSame)
    std::fprintf(stderr, "chatty: error: rank %d: %s\n", rank, what.c_str());
  if (together != chatty::FailedTogether::kAlone) return code;
  chatty::cluster_abort(code);
}

bool asks_help(const std::string& a) { return a == "-h" || a == "--help" || a == "-help" || a == "--helpfull"; }

// What this process runs, as ranks compare it: the command, and whether
// it asks for help. Read before the flags are, so that a rank with a bad
// flag still meets the others.
std::string invoked_command(int argc, char** argv) {
  const std::vector<std::string>& commands = chatty::cli::command_names();
  std::string cmd, other, help;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (asks_help(a))
      help = " --help";
    else if (cmd.empty() && std::find(commands.begin(), commands.end(), a) != commands.end())
      cmd = a;
    else if (other.empty() && a[0] != '-')
      other = a;
  }
  return (cmd.empty() ? other : cmd) + help;
}

// --rank_timeout as given (its default where absent or unreadable; at
// least 1 s, the least the flag takes), read before the flags are: it
// also bounds the ranks' meeting.
double given_rank_timeout(int argc, char** argv) {
  const std::optional<std::string> given = chatty::cli::given_flag(argc, argv, "rank_timeout");
  if (!given) return FLAGS_rank_timeout;
  char* end = nullptr;
  const double t = std::strtod(given->c_str(), &end);
  return end != given->c_str() && *end == '\0' ? (t > 0 ? std::max(t, 1.0) : t) : FLAGS_rank_timeout;
}

// `chatty help [CMD]`, `chatty [CMD] --help|-h`: the command's help, exit 0.
// Returns -1 when the arguments ask for no help.
int help(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "help") {
    const std::string cmd = args.size() > 1 ? args[1] : "";
    if (chatty::cli::print_help(cmd)) return 0;
    return say_error(chatty::cli::unknown_command_error(cmd), 2);
  }
  for (const std::string& a : args)
    if (asks_help(a)) {
      const std::string cmd = !args.empty() && args[0][0] != '-' ? args[0] : "";
      return chatty::cli::print_help(cmd) ? 0 : (chatty::cli::print_help(""), 0);
    }
  return -1;
}

int command(const std::string& cmd, const std::vector<std::string>& args) {
  if (cmd == "run") return chatty::cli::cmd_run(args);
  if (cmd == "convert") return chatty::cli::cmd_convert(args);
  if (cmd == "generate") return chatty::cli::cmd_generate(args);
  if (cmd == "info") return chatty::cli::cmd_info(args);
  if (cmd == "topo") return chatty::cli::cmd_topo(args);
  return say_error(chatty::cli::unknown_command_error(cmd), 2);
}

// An error of this rank's own, not agreed by the others: they may be
// waiting for it in a collective or a ring (an allocation that failed on
// one node, a fault in its compute), so under several ranks the job ends
// here, through MPI_Abort, once the line naming this rank is out.
int fail(const char* what) {
  const chatty::ClusterPlace* c = chatty::cluster();
  if (c && c->ranks > 1) {
    std::fprintf(stderr, "chatty: error: rank %d: %s\n", c->rank, what);
    chatty::cluster_abort(1);
  }
  return say_error(what, 1);
}

// An exception that leaves a device's thread (an allocation failing in a
// superstep) cannot unwind out of its OpenMP region: std::terminate runs
// with it current. It still ends the process with one line and status 1
// (the job, under ranks), not SIGABRT and the runtime's two lines. The
// first thread here speaks; another (two devices out of memory at once)
// waits for the exit. Nothing here allocates: memory may be what ran out.
[[noreturn]] void on_terminate() {
  static std::atomic_flag spoken = ATOMIC_FLAG_INIT;
  if (spoken.test_and_set())
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  const char* what = "internal error: std::terminate without an exception";
  try {
    if (const std::exception_ptr e = std::current_exception()) std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    what = "out of memory";
  } catch (const std::exception& e) {
    what = e.what();  // the exception lives on: the process ends before the handler returns
  } catch (...) {
    what = "internal error: an exception of unknown type";
  }
  fail(what);
  std::fflush(stderr);
  std::_Exit(1);  // other threads still run: no destructors
}

}  // namespace

int main(int argc, char** argv) {
  std::set_terminate(on_terminate);
  // Keep freed working arrays (frontiers, per-device replicas) in the heap
  // instead of returning them to the OS: every --repeat run would otherwise
  // fault in fresh pages (thousands per run on kron:20).
  chatty::keep_freed_memory();
  const std::string invoked = invoked_command(argc, argv);
  g_start_timeout = given_rank_timeout(argc, argv);
  if (const std::string refused = chatty::cluster_meet(invoked, g_start_timeout, invoked == "run"); !refused.empty()) {
    if (chatty::launched_rank() == 0) std::fprintf(stderr, "chatty: error: %s\n", refused.c_str());
    return 2;
  }
  if (const int rc = help(argc, argv); rc >= 0) return rc;
  g_runs = invoked == "run";
  for (const std::string& err :
       {chatty::cli::unknown_flag_error(argc, argv), chatty::cli::bad_flag_value_error(argc, argv)})
    if (!err.empty()) return say_error(err, 2);
  std::vector<char*> given(argv, argv + argc);  // gflags reorders argv
  gflags::SetVersionString("0.1.0");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    chatty::cli::print_help("");
    return 2;
  }
  const std::string cmd = args.front();
  args.erase(args.begin());
  if (const std::string err = chatty::cli::inapplicable_flag_error(cmd, int(given.size()), given.data()); !err.empty())
    return say_error(err, 2);
  try {
    const int rc = command(cmd, args);
    // A summary that could not be written (a full disk) is a failed run,
    // not a silent one.
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
      return fail((std::string("standard output: write failed: ") + std::strerror(errno)).c_str());
    return rc;
  } catch (const chatty::AgreedError& e) {
    // Every rank holds it: one line, from rank 0.
    if (!chatty::cluster() || chatty::cluster()->rank == 0) std::fprintf(stderr, "chatty: error: %s\n", e.what());
  } catch (const chatty::UsageError& e) {
    return say_error(e.what(), 2);
  } catch (const chatty::Error& e) {
    return fail(e.what());
  } catch (const std::bad_alloc&) {
    return fail("out of memory");
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  return 1;
}
