#!/usr/bin/env python3
"""The folders are layers: every #include of a project header must name a
folder its own folder may use (design.md's Layout), no files include each
other in a circle, and no app starts a thread team or a launch of its own.
Prints each offence and exits 1; --self-check also proves that planted
offences are caught."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Folder -> the folders its files may include (a longer prefix wins).
ALLOWED = {
    "runtime/base/": ["runtime/base/"],
    "kernels/": ["kernels/", "runtime/base/"],
    "comm/": ["comm/", "kernels/", "runtime/base/"],
    "cpu_cluster/": ["cpu_cluster/", "runtime/", "comm/", "kernels/"],
    "runtime/graph/": ["runtime/graph/", "runtime/base/"],
    "runtime/": ["runtime/", "comm/", "kernels/"],
    "datasets/": ["datasets/", "runtime/graph/", "runtime/base/"],
    "topology/": ["topology/", "comm/", "kernels/", "runtime/base/"],
}
PROJECT = ("runtime/", "kernels/", "comm/", "cpu_cluster/", "datasets/", "topology/", "apps/", "api/", "python/")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(path):
    best = None
    for f in ALLOWED:
        if path.startswith(f) and (best is None or len(f) > len(best)):
            best = f
    return best


def offences(files):
    found = []
    for path, text in files:
        folder = folder_of(path)
        if folder is None:
            continue
        for inc in INCLUDE.findall(text):
            if inc.startswith(PROJECT) and not inc.startswith(tuple(ALLOWED[folder])):
                found.append(f"{path} includes {inc}: {folder} may use only {', '.join(ALLOWED[folder])}")
    return found


# An app is its programs, reference, verifier and registry entry: the
# engine owns every thread team and launch (runtime/).
ENGINE_ONLY = re.compile(r"#\s*pragma\s+omp\s+parallel|<<<")


def engine_work_in_apps(files):
    found = []
    for path, text in files:
        if path.startswith("apps/") and not path.startswith(("apps/cli/", "apps/job/")):  # the shell, not apps
            for m in ENGINE_ONLY.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path}:{line}: '{m.group(0)}' in an app: thread teams and launches are the engine's")
    return found


# The command line's flags are read in apps/cli/ and nowhere else: the run
# pipeline, the library and Python take typed options (apps/job/run_options.h).
COMMAND_LINE = re.compile(r'^\s*#\s*include\s+[<"](gflags/[^">]+|apps/cli/[^">]+)[">]|\bFLAGS_\w+', re.M)


def command_line_outside_cli(files):
    found = []
    for path, text in files:
        if not path.startswith("apps/cli/"):
            for m in COMMAND_LINE.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path}:{line}: '{m.group(0).strip()}' outside apps/cli/: flags are the command line's")
    return found


def include_cycles(files):
    """Circles of project files that include each other, each as a list."""
    known = {path for path, _ in files}
    graph = {path: [i for i in INCLUDE.findall(text) if i in known] for path, text in files}
    cycles, state, stack = [], {}, []

    def visit(f):
        state[f] = 1
        stack.append(f)
        for g in graph.get(f, []):
            if state.get(g) == 1:
                cycles.append(stack[stack.index(g):] + [g])
            elif g not in state:
                visit(g)
        stack.pop()
        state[f] = 2

    for f in sorted(graph):
        if f not in state:
            visit(f)
    return cycles


def tree_files(tops=("runtime", "kernels", "comm", "cpu_cluster", "datasets", "topology")):
    for top in tops:
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            for name in names:
                if name.endswith((".h", ".cc", ".cu", ".cuh")):
                    full = os.path.join(dirpath, name)
                    with open(full, encoding="utf-8") as f:
                        yield os.path.relpath(full, ROOT), f.read()


def main():
    files = list(tree_files())
    if len(files) < 50:
        sys.exit(f"layers_test: found only {len(files)} sources under {ROOT}")
    if "--self-check" in sys.argv:
        planted = offences([("kernels/cpu/x.h", '#include "runtime/graph/graph.h"\n'),
                            ("runtime/graph/x.h", '#include "runtime/engine/run_program.h"\n'),
                            ("comm/x.cc", '#include "cpu_cluster/cluster.h"\n'),
                            ("runtime/engine/x.h", '#include "cpu_cluster/cluster.h"\n'),
                            ("runtime/base/x.h", '#include "runtime/base/types.h"\n')])
        assert len(planted) == 4, planted
        planted = engine_work_in_apps([("apps/x/app.cc", "#pragma omp parallel for\n"),
                                       ("apps/x/gpu.cu", "k<<<1, 1>>>();\n"),
                                       ("apps/cli/main.cc", "#pragma omp parallel\n")])
        assert len(planted) == 2, planted
        planted = command_line_outside_cli([("apps/job/x.cc", '#include <gflags/gflags.h>\n'),
                                             ("api/x.cc", '#include "apps/cli/flags.h"\n'),
                                             ("python/src/x.cc", "int t = FLAGS_threads;\n"),
                                             ("apps/cli/flags.cc", '#include <gflags/gflags.h>\nFLAGS_graph;\n')])
        assert len(planted) == 3, planted
        planted = include_cycles([("a.h", '#include "b.h"\n'), ("b.h", '#include "a.h"\n'), ("c.h", '#include "a.h"\n')])
        assert len(planted) == 1, planted
    every = list(tree_files(("runtime", "kernels", "comm", "cpu_cluster", "datasets", "topology", "apps", "api", "python")))
    bad = offences(files) + engine_work_in_apps(tree_files(("apps",))) + command_line_outside_cli(every)
    bad += ["a circle of includes: " + " -> ".join(c) for c in include_cycles(every)]
    for line in bad:
        print(line)
    print(f"layers_test: {len(files)} sources, {len(bad)} includes back up, circles or engine work in apps")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
