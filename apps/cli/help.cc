#include "apps/cli/help.h"

#include <gflags/gflags.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "apps/job/run_options.h"
#include "apps/registry.h"
#include "datasets/formats.h"

namespace chatty::cli {
namespace {

// A command's flags in groups, the everyday ones first.
struct FlagGroup {
  const char* title;
  std::vector<const char*> flags;
};

struct CommandHelp {
  const char* name;
  const char* usage;
  const char* what;
  std::vector<FlagGroup> groups;
  const char* examples;
  bool takes(const std::string& flag) const {
    for (const FlagGroup& g : groups)
      for (const char* f : g.flags)
        if (flag == f) return true;
    return false;
  }
};

const std::vector<CommandHelp>& commands() {
  static const std::vector<CommandHelp> c = {
      {"run",
       "chatty run --app=APP --graph=FILE|SPEC [flags]",
       "Runs an app (listed below) on a graph file (any format below, gzip/zstd/bzip2 or standard input\n"
       "with --graph=-) or a generated graph, on the CPU or the GPUs, over one or several devices; prints\n"
       "the load and compute times, a summary of the result and, with --validate, a check against the\n"
       "sequential reference. Exit 0 on success, 1 on an error, 2 on a usage error, 3 when validation\n"
       "fails, 4 when PageRank, Katz, eigenvector or HITS stopped at --max_iters before converging. Without\n"
       "--app it runs bfs, without --graph on kron:16, and says so on its first lines.",
       {{"common",
         {"app", "graph", "source", "sources", "validate", "output", "json", "quiet", "repeat", "threads", "seed"}},
        {"the input",
         {"format", "ids", "undirected", "symmetrize", "dedupe", "drop_self_loops", "no_default_weights", "reorder"}},
        {"per app", {"direction",  "alpha",     "beta",       "delta",       "tolerance",       "max_iters",
                     "damping",    "bc_scale",  "katz_alpha", "katz_beta",   "katz_normalized", "distance_measure",
                     "resolution", "threshold", "max_level",  "keep_levels", "passes",          "similarity",
                     "pairs",      "top_k",     "similar_to", "gpu_tc"}},
        {"devices and transports",
         {"backend", "devices", "comm", "exchange", "messages", "migrate", "numa", "straggler", "gpu_lb", "gpu_gather",
          "gpu_bucket_min", "gpu_steps_per_sync", "gpu_wave", "cpu_wave", "cpu_gather"}},
        {"ranks (under mpirun)", {"net", "rank_timeout"}},
        {"tuning (engine internals; the defaults are measured)",
         {"ring_bytes", "put_window_mb", "batch_bytes", "ring_lanes", "small_bytes", "migrate_block",
          "migrate_threshold", "migrate_cache_mb", "trace"}}},
       "  chatty run --app=bfs --graph=kron:20 --validate\n"
       "  chatty run --app=sssp --graph=road.gr --source=1 --output=dist.txt   (DIMACS ids are 1..N)\n"
       "  zcat web.txt.gz | chatty run --app=pr --graph=- --json\n"
       "  chatty run --app=bfs --graph=soc.txt --undirected --sources=64     # GAP's -n 64\n"
       "  chatty run --app=wcc --graph=kron:20 --devices=4 --backend=cpu\n"
       "  chatty run --app=kcore --graph=soc.txt --undirected --output=core.txt\n"
       "  chatty run --app=tc --graph=soc.txt --undirected --validate            # triangles per vertex, total\n"
       "  chatty run --app=bc --graph=soc.txt --undirected --sources=all         # exact betweenness (Brandes)\n"
       "  chatty run --app=bc --graph=soc.txt --undirected --sources=5,          # from vertex 5 only (5 alone: 5 "
       "random)\n"
       "  chatty run --app=bc --graph=soc.txt --undirected --bc_scale=normalized # NetworkX's normalized=True\n"
       "  chatty run --app=similarity --graph=soc.txt --undirected --pairs=3:17,4:9   # Jaccard of two pairs\n"
       "  chatty run --app=similarity --graph=soc.txt --undirected --top_k=5 --similar_to=3,  # 3's 5 most similar"},
      {"convert",
       "chatty convert IN OUT [flags]",
       "Converts a graph between formats, chosen by OUT's extension: .el (two columns, as GAP reads it),\n"
       ".wel (three), .txt/.edges/.snap (SNAP text with a header), .gr (DIMACS), .mtx (Matrix Market),\n"
       ".cgr (ChattyGraph's binary, loaded in place). Undirected graphs stay undirected.",
       {{"flags",
         {"graph", "out", "out_format", "format", "ids", "undirected", "symmetrize", "dedupe", "drop_self_loops",
          "seed", "threads"}}},
       "  chatty convert soc-LiveJournal1.txt.gz lj.cgr --undirected\n"
       "  chatty convert road.mtx road.gr"},
      {"generate",
       "chatty generate SPEC OUT [flags]",
       "Writes a generated graph: kron:SCALE[:EF] (Graph500 Kronecker), urand:SCALE[:EF] (uniform\n"
       "random), grid:WxH (2D grid), road:WxH (road-like: degree 2-4, weighted by length); all undirected.",
       {{"flags", {"graph", "out", "out_format", "seed", "threads"}}},
       "  chatty generate kron:20 kron20.cgr\n"
       "  chatty generate grid:1000x1000 grid.el"},
      {"info",
       "chatty info FILE|SPEC [flags]",
       "Prints |V|, |E|, directedness, weights and degree statistics; with --devices=P, the chunks the\n"
       "multi-device runtime would use.",
       {{"flags",
         {"graph", "format", "ids", "undirected", "symmetrize", "dedupe", "drop_self_loops", "seed", "devices",
          "reorder", "json", "threads"}}},
       "  chatty info facebook_combined.txt\n"
       "  chatty info kron:20 --devices=4"},
      {"topo",
       "chatty topo [flags]",
       "Reports the GPUs of this machine, their links (NVLink, PCIe) and the transport the policy picks\n"
       "for each data class; --topology names a synthetic box (dgx1-v100, dgx-a100, dgx-h100, pcie8).",
       {{"flags", {"topology", "bench", "topology_cache", "devices", "transports", "json"}}},
       "  chatty topo\n"
       "  chatty topo --transports          # every --comm transport and the devices it serves\n"
       "  chatty topo --topology=dgx-h100 --devices=8"},
  };
  return c;
}

// A default as a person writes it: gflags prints doubles with 17 digits
// (1e-06 as 9.9999999999999995e-07).
std::string shown_default(const gflags::CommandLineFlagInfo& info) {
  if (info.type != "double") return info.default_value;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", std::strtod(info.default_value.c_str(), nullptr));
  return buf;
}

void print_flag(const char* name) {
  gflags::CommandLineFlagInfo info;
  if (!gflags::GetCommandLineFlagInfo(name, &info)) return;
  const std::string value = info.type == "bool" ? "" : info.type == "string" ? "=VALUE" : "=N";
  const std::string head = "  --" + info.name + value;
  std::printf("%-28s %s", head.c_str(), info.description.c_str());
  if (!info.default_value.empty() && info.default_value != "0" && info.default_value != "false" &&
      info.description.find("default") == std::string::npos)
    std::printf(" [default: %s]", shown_default(info).c_str());
  std::printf("\n");
}

}  // namespace

const std::vector<std::string>& command_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const CommandHelp& c : commands()) n.push_back(c.name);
    n.push_back("help");
    return n;
  }();
  return names;
}

// "edge list (.txt .el ...), DIMACS (.gr), ...": every format of the table.
std::string format_list() {
  std::string s;
  for (Format f : formats()) {
    std::string ext;
    for (const char* p = f->extensions; *p; ++p) ext += *p == ' ' ? std::string(" .") : std::string(1, *p);
    s += (s.empty() ? "" : ", ") + std::string(f->title) + " (." + ext + ")";
  }
  return s;
}

bool print_help(const std::string& command) {
  if (command.empty()) {
    std::printf(
        "chatty: graph analytics (%s) on CPUs and GPUs, one device or several\n\n"
        "usage: chatty COMMAND [flags]\n\ncommands:\n",
        app_names().c_str());
    for (const CommandHelp& c : commands()) std::printf("  %-9s %s\n", c.name, c.usage);
    std::printf(
        "\n`chatty help COMMAND` or `chatty COMMAND --help` for a command's flags and examples.\n\n"
        "graph inputs: %s (SNAP and KONECT headers honoured);\n"
        "gzip/zstd/bzip2 by content; '-' reads standard input; generators kron:SCALE[:EF], urand:SCALE[:EF],\n"
        "grid:WxH, road:WxH.\n\n"
        "examples:\n  chatty run --app=bfs --graph=kron:20 --validate\n  chatty topo\n",
        format_list().c_str());
    return true;
  }
  for (const CommandHelp& c : commands()) {
    if (command != c.name) continue;
    std::printf("usage: %s\n\n%s\n\n", c.usage, c.what);
    if (command == "run") {
      std::printf("apps:\n");
      for (App a : all_apps()) {
        const AppSpec& spec = app_spec(a);
        const std::string names = std::string(spec.name) + (*spec.alias ? std::string(", ") + spec.alias : "");
        std::printf("  %-18s %s\n", names.c_str(), spec.about);
      }
      std::printf("\n");
    }
    for (const FlagGroup& g : c.groups) {
      std::printf("%s:\n", g.title);
      for (const char* f : g.flags) print_flag(f);
      std::printf("\n");
    }
    std::printf(
        "A flag [default: true] is turned off with --noFLAG or --FLAG=false; --FLAG=VALUE and --FLAG VALUE\n"
        "are the same.\n");
    std::printf("\nexamples:\n%s\n", c.examples);
    return true;
  }
  return false;
}

namespace {

// An argument that names a flag: "--name" or "-name", with "=value" or not.
struct FlagArg {
  int at;  // its index in argv
  std::string name;
  std::optional<std::string> value;  // after '='
};

// The arguments up to "--" that name flags.
std::vector<FlagArg> flag_args(int argc, char** argv) {
  std::vector<FlagArg> out;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") break;
    if (a.size() < 2 || a[0] != '-') continue;
    const std::string body = a.substr(a[1] == '-' ? 2 : 1);
    const size_t eq = body.find('=');
    out.push_back({i, body.substr(0, eq), eq == std::string::npos ? std::nullopt : std::optional(body.substr(eq + 1))});
  }
  return out;
}

}  // namespace

std::string unknown_flag_error(int argc, char** argv) {
  std::vector<std::string> names;
  std::vector<gflags::CommandLineFlagInfo> all;
  gflags::GetAllFlags(&all);
  for (const auto& f : all) names.push_back(f.name);
  for (const FlagArg& f : flag_args(argc, argv)) {
    const std::string& name = f.name;
    gflags::CommandLineFlagInfo info;
    if (gflags::GetCommandLineFlagInfo(name.c_str(), &info)) continue;
    // --noFLAG turns a boolean off.
    if (name.rfind("no", 0) == 0 && gflags::GetCommandLineFlagInfo(name.substr(2).c_str(), &info) &&
        info.type == "bool")
      continue;
    const std::string near = job::nearest_name(name, names);
    return "unknown flag --" + name + (near.empty() ? "" : " (did you mean --" + near + "?)") +
           "; `chatty help` lists the commands and their flags";
  }
  return {};
}

std::optional<std::string> given_flag(int argc, char** argv, const std::string& name) {
  for (const FlagArg& f : flag_args(argc, argv))
    if (f.name == name) return f.value ? f.value : std::optional<std::string>(f.at + 1 < argc ? argv[f.at + 1] : "");
  return std::nullopt;
}

std::string bad_flag_value_error(int argc, char** argv) {
  const std::vector<FlagArg> args = flag_args(argc, argv);
  for (size_t k = 0; k < args.size(); ++k) {
    const FlagArg& f = args[k];
    gflags::CommandLineFlagInfo info;
    if (!gflags::GetCommandLineFlagInfo(f.name.c_str(), &info) || info.type == "string") continue;
    std::string value;
    if (f.value) {
      value = *f.value;
    } else if (info.type != "bool" && f.at + 1 < argc) {
      value = argv[f.at + 1];                                      // gflags' `--flag value`
      if (k + 1 < args.size() && args[k + 1].at == f.at + 1) ++k;  // a value that looks like a flag
    } else {
      continue;
    }
    // Parsing sets the flag, as gflags would a moment later.
    if (gflags::SetCommandLineOption(f.name.c_str(), value.c_str()).empty())
      return "--" + f.name + "=" + value + ": --" + f.name + " takes " + job::option_takes(info.type);
  }
  return {};
}

std::string inapplicable_flag_error(const std::string& command, int argc, char** argv) {
  const CommandHelp* c = nullptr;
  for (const CommandHelp& h : commands())
    if (command == h.name) c = &h;
  if (!c) return {};
  for (const FlagArg& f : flag_args(argc, argv)) {
    std::string name = f.name;
    gflags::CommandLineFlagInfo info;
    if (!gflags::GetCommandLineFlagInfo(name.c_str(), &info) && name.rfind("no", 0) == 0) name = name.substr(2);
    if (!gflags::GetCommandLineFlagInfo(name.c_str(), &info) || info.filename.find("gflags") != std::string::npos)
      continue;  // unknown flags have their own error; gflags' own (--flagfile) apply everywhere
    if (c->takes(name)) continue;
    std::string applies;
    for (const CommandHelp& h : commands())
      if (h.takes(name)) applies += std::string(applies.empty() ? "" : ", ") + h.name;
    return "--" + name + " does not apply to `chatty " + command + "`" +
           (applies.empty() ? "" : " (it is a flag of " + applies + ")") + "; `chatty " + command +
           " --help` lists its flags";
  }
  return {};
}

std::string unknown_command_error(const std::string& command) {
  const std::string near = job::nearest_name(command, command_names());
  return "unknown command '" + command + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
         "; commands: run, convert, generate, info, topo, help";
}

}  // namespace chatty::cli
