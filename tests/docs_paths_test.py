"""Every repository path and every `chatty` flag that the README and
docs/*.md name exists: a path in backticks or a link is a file or folder
of the tree (and a link's #anchor a heading of its page), a flag in a
`chatty ...` command line or a lone flag in backticks is one that
`chatty help COMMAND` lists. Fails with file:line for each one missing.

    python3 tests/docs_paths_test.py build/chatty

What is a repository path:
- a word in backticks or a link target with a slash whose first part is a
  top-level entry of the tree (`runtime/host/operators.h`, `docs/ranks.md`)
  must exist; `<name>`, `NAME`, `*` and `{h,cc}` are patterns, which must
  match at least one path (`apps/<name>/`, `reference.{h,cc}`);
- any other slashed word or bare file name with a source extension
  (`drivers/traversal.h`, `launch.h`) must be the end of some path of the
  tree;
- links resolve from the page's folder, as a browser does;
- build outputs (`build/...`), absolute paths, `~`, `$VAR/...` and paths
  outside the tree (`../shared/...`) are not the tree's.

What is a flag: in fenced sh blocks and backticks, a command line whose
program is `chatty` (`build/chatty`, after `mpirun ...`) has each of its
`--flags` checked; a backtick span that starts with a flag (`--devices=P`)
has its flags checked too, unless they are named in OTHER_TOOLS (flags of
mpirun and the scripts, quoted apart from their command). Other
programs' command lines (`python3 scripts/bench_gap.py --rounds 3`,
`mpirun --quiet`) are theirs and not checked."""

import fnmatch
import glob
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHATTY = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "chatty")

# Flags of other programs that the docs quote alone, away from their
# command line. Keep it short: quote a script's flags with the script.
OTHER_TOOLS = {
    "hostfile", "map-by", "bind-to", "mca",  # mpirun
    "portability",  # tests/mpi_test.py
    "rounds",  # the bench scripts
    "ranks", "comms", "launcher",  # scripts/sweep.py
}
# File names the docs use for the user's own files, not the tree's.
NOT_THE_TREES = {"script.py", "report.md"}
SOURCE_EXT = (".h", ".cc", ".cu", ".cuh", ".py", ".sh", ".toml", ".cmake", ".md")
COMMANDS = {"run", "convert", "generate", "info", "topo", "help"}
SKIP_FIRST = ("build", ".gpu", "out", "..", ".", "~", "$")


def docs():
    return [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))


def tree():
    """Every file and folder of the tree, relative to ROOT (not builds, not .git)."""
    out = set()
    for top, dirs, files in os.walk(ROOT):
        rel = os.path.relpath(top, ROOT)
        if rel == ".":
            dirs[:] = [d for d in dirs if not d.startswith(("build", ".", "out")) and d != "__pycache__"]
        else:
            dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
            out.add(rel + "/")
        out.update(os.path.normpath(os.path.join(rel, f)) for f in files)
    return out


TREE = tree()
TOP = {p.split("/")[0] for p in TREE}


def chatty_flags():
    """The flags of every command `chatty help` lists, and --noFLAG of the true/false ones."""
    top = subprocess.run([CHATTY, "help"], capture_output=True, text=True).stdout
    commands = re.findall(r"^  (\w+)\s+chatty \1", top, re.M)
    assert commands, "chatty help lists no commands:\n" + top
    flags = {"help"}
    for c in commands:
        text = subprocess.run([CHATTY, "help", c], capture_output=True, text=True).stdout
        for name, value in re.findall(r"^  --([a-z0-9_]+)(=\w+)?\s", text, re.M):
            flags.add(name)
            if not value:
                flags.add("no" + name)
    return flags


def pattern(word):
    """A glob for a path that may hold placeholders: <name>, NAME, *, {a,b}."""
    word = re.sub(r"<[^>]*>", "*", word)
    word = re.sub(r"(?<![a-z])[A-Z][A-Z_]+(?![a-z])", "*", word)
    return word


def expand(word):
    m = re.search(r"\{([^{}]*,[^{}]*)\}", word)
    if not m:
        return [word]
    return [w for alt in m.group(1).split(",") for w in expand(word[:m.start()] + alt + word[m.end():])]


def matches(glob_path, suffix=False):
    """Whether some path of the tree is glob_path (or, with suffix, ends with it)."""
    want = glob_path.rstrip("/")
    is_dir = glob_path.endswith("/")
    for p in TREE:
        if is_dir and not p.endswith("/"):
            continue
        q = p.rstrip("/")
        if fnmatch.fnmatchcase(q, want) or (suffix and fnmatch.fnmatchcase(q, "*/" + want)):
            return True
    return False


def path_missing(word, page_dir):
    """None where `word` is no repository path or exists; else why not."""
    word = word.strip(".,;:()'\"").rstrip("\\")
    word = re.sub(r":\d+(-\d+)?$", "", word)  # file:line
    if not word or "://" in word or word.startswith(("/", "-")) or "=" in word:
        return None
    if "/" in word:
        first = word.split("/")[0]
        if first.startswith(SKIP_FIRST) or first == "":
            return None
        globs = [pattern(w) for w in expand(word)]
        if first in TOP:
            return None if all(matches(g) for g in globs) else "no such path in the tree"
        if page_dir != ROOT and all(matches(os.path.relpath(os.path.join(page_dir, g), ROOT)) for g in globs):
            return None
        if word.endswith(SOURCE_EXT):
            return None if all(matches(g, suffix=True) for g in globs) else "no path of the tree ends so"
        return None
    if word.endswith(SOURCE_EXT) and re.fullmatch(r"[\w.{},<>*-]+", word) and word not in NOT_THE_TREES:
        globs = [pattern(w) for w in expand(word)]
        if all(matches(g) or matches(g, suffix=True) for g in globs):
            return None
        return "no file of the tree has this name"
    return None


def slug(heading):
    """GitHub's anchor for a heading."""
    text = re.sub(r"`([^`]*)`", r"\1", heading.strip()).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    fence = False
    for line in open(path):
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out


def parts(text):
    """(line offset, kind, text) of a page: 'sh' lines of sh blocks, 'code' spans and 'link' targets elsewhere."""
    lines = text.split("\n")
    prose, fence = [], None
    for i, line in enumerate(lines):
        m = re.match(r"^\s*```(\w*)", line)
        if m:
            fence = None if fence is not None else (m.group(1) or "-")
            prose.append("")
            continue
        if fence is None:
            prose.append(line)
        else:
            prose.append("")
            if fence == "sh":
                yield i, "sh", line
    body = "\n".join(prose)

    def line_at(pos):
        return body.count("\n", 0, pos)

    for m in re.finditer(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", body, re.S):
        yield line_at(m.start()), "code", m.group(2).replace("\n", " ")
    no_code = re.sub(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", lambda m: re.sub(r"[^\n]", " ", m.group(0)), body, flags=re.S)
    for m in re.finditer(r"\]\(([^)\s]+)\)", no_code):
        yield line_at(m.start()), "link", m.group(1)
    for m in re.finditer(r"^\[[^\]]+\]:\s*(\S+)", no_code, re.M):
        yield line_at(m.start()), "link", m.group(1)


def words(command):
    try:
        return shlex.split(command, comments=True)
    except ValueError:
        return command.split()


def flags_of(command):
    """(flag name, where it stands) of the chatty command lines in a shell command, and of a span of flags."""
    toks = words(command.replace("\\|", "|"))
    if toks and toks[0].startswith("--"):  # a span of flags alone: chatty's, unless another tool's
        return [(t[2:].split("=")[0], "alone") for t in toks if t.startswith("--")]
    out, in_chatty, first = [], False, True
    for i, t in enumerate(toks):
        if t in ("|", "&&", "||", ";", ":") or t.endswith(";"):
            in_chatty, first = False, True
            continue
        if first and re.fullmatch(r"[A-Za-z_]\w*=\S*", t):  # VAR=value before the program
            continue
        # chatty is the program where it starts the command or a command word
        # follows it (`mpirun -np 2 build/chatty run`), not where it is a
        # script's value (`--chatty build/chatty`).
        if (t == "chatty" or t.endswith("/chatty")) and (first or toks[i + 1:i + 2] and toks[i + 1] in COMMANDS):
            in_chatty = True
        elif in_chatty and t.startswith("--"):
            out.append((t[2:].split("=")[0], "chatty"))
        first = False
    return out


def flag_unknown(name, where, known):
    if not re.fullmatch(r"[a-z0-9_-]+", name):  # --FLAG, --noFLAG: placeholders
        return False
    if name in known or (where == "alone" and name in OTHER_TOOLS):
        return False
    if name.endswith("_") and any(k.startswith(name) for k in known):  # `--gpu_` flags
        return False
    return True


def main():
    known = chatty_flags()
    problems = []
    for page in docs():
        rel = os.path.relpath(page, ROOT)
        page_dir = os.path.dirname(page)
        text = open(page).read()
        for offset, kind, item in parts(text):
            where = f"{rel}:{offset + 1}"
            if kind == "link":
                target, _, anchor = item.partition("#")
                if re.match(r"^[a-z]+:", target):
                    continue
                path = os.path.normpath(os.path.join(page_dir, target)) if target else page
                if not os.path.exists(path):
                    problems.append(f"{where}: link to {item}: no such path in the tree")
                elif anchor and path.endswith(".md") and anchor not in anchors(path):
                    problems.append(f"{where}: link to {item}: {os.path.relpath(path, ROOT)} has no heading #{anchor}")
                continue
            if kind == "code":
                for w in item.split():
                    why = path_missing(w, page_dir)
                    if why:
                        problems.append(f"{where}: `{w}`: {why}")
            else:
                for w in words(item):
                    if w.split("/")[0] in TOP and "/" in w:
                        why = path_missing(w, page_dir)
                        if why:
                            problems.append(f"{where}: {w}: {why}")
            for name, how in flags_of(item):
                if flag_unknown(name, how, known):
                    problems.append(f"{where}: --{name}: not a flag of chatty (`chatty help COMMAND` lists them)"
                                    + (" nor in OTHER_TOOLS" if how == "alone" else ""))
    for p in problems:
        print("FAIL  " + p)
    print(f"{len(docs())} pages, {len(known)} chatty flags known, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
