// chatty: the ChattyGraph command line.
#include <malloc.h>

#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "apps/cli/commands.h"
#include "apps/cli/flags.h"
#include "runtime/status.h"

namespace {

constexpr const char* kUsage =
    "usage: chatty <command> [flags]\n"
    "  run       run an app: --app=bfs|sssp|pr|wcc --graph=FILE|SPEC [--source=V] [--validate]\n"
    "            [--repeat=N] [--output=FILE] [--json] [--threads=N] [--backend=auto|cpu]\n"
    "  convert   IN OUT        convert between formats (by extension: .el .wel .gr .mtx .cgr ...)\n"
    "  generate  SPEC OUT      write a generated graph (kron:SCALE[:EF], urand:SCALE[:EF], grid:WxH)\n"
    "  info      FILE|SPEC     |V|, |E|, degree statistics, directed/weighted\n"
    "  topo      [--topology=NAME|FILE] [--bench] [--json]   GPU links and the transport policy\n"
    "run `chatty --help` for every flag";

}  // namespace

int main(int argc, char** argv) {
  // Keep freed working arrays (frontiers, per-device replicas; up to 32 MiB
  // each) in the heap instead of returning them to the OS: every --repeat
  // run would otherwise fault in fresh pages (thousands per run on kron:20).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  gflags::SetUsageMessage(kUsage);
  gflags::SetVersionString("0.1.0");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::fprintf(stderr, "%s\n", kUsage);
    return 2;
  }
  const std::string cmd = args.front();
  args.erase(args.begin());
  try {
    if (cmd == "run") return chatty::cli::cmd_run(args);
    if (cmd == "convert") return chatty::cli::cmd_convert(args);
    if (cmd == "generate") return chatty::cli::cmd_generate(args);
    if (cmd == "info") return chatty::cli::cmd_info(args);
    if (cmd == "topo") return chatty::cli::cmd_topo(args);
    std::fprintf(stderr, "chatty: error: unknown command '%s' (run, convert, generate, info, topo)\n", cmd.c_str());
    return 2;
  } catch (const chatty::Error& e) {
    std::fprintf(stderr, "chatty: error: %s\n", e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "chatty: error: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "chatty: error: %s\n", e.what());
  }
  return 1;
}
