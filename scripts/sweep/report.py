"""The report of a sweep: plots (time and speed-up against devices with
the ideal line, communicated/updated per superstep, time split per phase,
bytes per data class) and report.md that shows them together."""
import csv
import os
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import tables  # noqa: E402

PHASE_COLORS = {"merge": "#4c72b0", "compute": "#55a868", "compact": "#c44e52", "exchange": "#8172b2",
                "wait": "#ccb974"}


def ok_rows(rows):
    return [r for r in rows if "run" in r]


def series(rows, graph):
    """(app, comm, backend, ranks) -> sorted [(ranks x devices, median, min,
    max)] on one graph: a line per transport and rank count."""
    s = defaultdict(list)
    for r in ok_rows(rows):
        p = r["point"]
        if p["graph"] == graph:
            ranks = p.get("ranks", 1)
            s[(p["app"], p["comm"], p["backend"], ranks)].append(
                (ranks * p["devices"], r["median_s"], r["min_s"], r["max_s"]))
    return {k: sorted(v) for k, v in s.items()}


def label(k):
    app, comm, backend, ranks = k
    return f"{app} ({backend}, {comm}" + (f", {ranks} ranks)" if ranks > 1 else ")")


def plot_time_and_speedup(rows, graph, out):
    s = series(rows, graph)
    fig, (ax_t, ax_s) = plt.subplots(1, 2, figsize=(12, 4.5))
    devices = sorted({d for v in s.values() for d, *_ in v})
    for k, v in s.items():
        d = [x[0] for x in v]
        med = [x[1] * 1e3 for x in v]
        err = [[(x[1] - x[2]) * 1e3 for x in v], [(x[3] - x[1]) * 1e3 for x in v]]
        line = ax_t.errorbar(d, med, yerr=err, marker="o", capsize=3, label=label(k))
        # over one device of one process (the same app and backend)
        base = dict((x[0], x[1]) for x in v).get(1) or next(
            (w[0][1] for kk, w in s.items() if kk[0] == k[0] and kk[2] == k[2] and kk[3] == 1 and w[0][0] == 1), None)
        if base:
            ax_s.plot(d, [base / x[1] for x in v], marker="o", color=line[0].get_color(), label=label(k))
    if devices:
        ax_s.plot(devices, devices, "k--", label="ideal (P x)")
    ax_t.set(xlabel="devices (ranks x devices per rank)", ylabel="compute time (ms, median; bars: min-max)", yscale="log",
             title=f"{graph}: time against devices")
    ax_s.set(xlabel="devices (ranks x devices per rank)", ylabel="speed-up over one device (x)", title=f"{graph}: speed-up")
    for ax in (ax_t, ax_s):
        ax.set_xticks(devices)
        ax.grid(alpha=0.3)
    ax_s.legend(fontsize=7)
    ax_t.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot_communicated(rows, graph, out_dir, out):
    """The ChattyGraph paper's figure 11: communicated / updated vertices per superstep, at
    the largest device count of each app (first transport)."""
    best = {}
    for r in ok_rows(rows):
        p = r["point"]
        if p["graph"] == graph and p["devices"] > 1 and r.get("trace"):
            k = p["app"]
            if k not in best or p["devices"] > best[k]["point"]["devices"]:
                best[k] = r
    fig, ax = plt.subplots(figsize=(7, 4.5))
    drawn = False
    for app, r in sorted(best.items()):
        path = os.path.join(out_dir, r["trace"])
        if not os.path.exists(path):
            continue
        with open(path) as f:
            steps = list(csv.DictReader(f))
        xs = [i for i, s in enumerate(steps) if int(s.get("updated", 0) or 0) > 0]
        ys = [100 * int(steps[i]["communicated"]) / int(steps[i]["updated"]) for i in xs]
        if xs:
            ax.plot(xs, ys, marker=".", label=f"{app}, P={r['point']['devices']}")
            drawn = True
    ax.set(xlabel="superstep", ylabel="communicated / updated vertices (%)",
           title=f"{graph}: boundary records sent per update")
    if drawn:
        ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot_split(rows, graph, out):
    """Mean seconds per device in each phase, stacked, per app and P."""
    bars = []
    for r in sorted(ok_rows(rows), key=lambda r: (r["point"]["app"], r["point"]["devices"])):
        p = r["point"]
        if p["graph"] != graph or p["comm"] != rows_first_comm(rows, graph):
            continue
        m = r["run"].get("multi")
        split = {ph: (m or {}).get(ph + "_s", 0.0) for ph in tables.PHASES}
        if not m:  # one device: the single-device engine has no phases
            split["compute"] = r["median_s"]
        bars.append((f"{p['app']}\nP={p['devices']}", split))
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(bars) + 2), 4.5))
    bottom = [0.0] * len(bars)
    for ph in tables.PHASES:
        vals = [b[1][ph] * 1e3 for b in bars]
        ax.bar(range(len(bars)), vals, bottom=bottom, color=PHASE_COLORS[ph], label=ph)
        bottom = [x + y for x, y in zip(bottom, vals)]
    ax.set_xticks(range(len(bars)), [b[0] for b in bars], fontsize=7)
    ax.set(ylabel="time per device (ms, mean over devices)", title=f"{graph}: where the time goes")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def rows_first_comm(rows, graph):
    comms = [r["point"]["comm"] for r in ok_rows(rows) if r["point"]["graph"] == graph]
    return comms[0] if comms else None


def plot_bytes(rows, graph, out):
    bars = []
    for r in sorted(ok_rows(rows), key=lambda r: (r["point"]["app"], r["point"]["devices"])):
        p, m = r["point"], r["run"].get("multi")
        if p["graph"] == graph and m and p["comm"] == rows_first_comm(rows, graph):
            bars.append((f"{p['app']}\nP={p['devices']}", m))
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(bars) + 2), 4.5))
    width = 0.27
    for i, cls in enumerate(["structure", "application", "status"]):
        ax.bar([x + (i - 1) * width for x in range(len(bars))], [max(b[1][f"bytes_{cls}"], 1) for b in bars],
               width, label=cls)
    ax.set_xticks(range(len(bars)), [b[0] for b in bars], fontsize=7)
    ax.set(ylabel="bytes moved (log)", yscale="log", title=f"{graph}: bytes per data class")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def write_report(out_dir):
    rows = tables.read(os.path.join(out_dir, "results.jsonl"))
    rep = os.path.join(out_dir, "report")
    os.makedirs(rep, exist_ok=True)
    tables.write_csv(rows, os.path.join(out_dir, "results.csv"))
    graphs = sorted({r["point"]["graph"] for r in ok_rows(rows)})
    md = ["# Sweep report", ""]
    if rows:
        m = rows[0].get("machine", {})
        md += [f"Machine: {m.get('host', '?')}, {m.get('cpu', '?')}, {m.get('cores', '?')} cores; commit "
               f"{rows[0].get('commit', '?')}; topology {rows[0].get('topology_fingerprint', '') or '-'}.",
               f"{len(ok_rows(rows))} points ran, {sum('skipped' in r for r in rows)} skipped, "
               f"{sum('error' in r for r in rows)} failed; each point's time is the median of its repeats.", ""]
    for g in graphs:
        safe = g.replace(":", "_").replace("/", "_")
        figs = [("time and speed-up", f"{safe}_time.png", plot_time_and_speedup, (rows, g)),
                ("communicated / updated per superstep", f"{safe}_communicated.png", plot_communicated,
                 (rows, g, out_dir)),
                ("time split", f"{safe}_split.png", plot_split, (rows, g)),
                ("bytes per data class", f"{safe}_bytes.png", plot_bytes, (rows, g))]
        md += [f"## {g}", ""]
        for title, name, fn, args in figs:
            fn(*args, os.path.join(rep, name))
            md += [f"### {title}", "", f"![{title}]({name})", ""]
    skipped = [r for r in rows if "skipped" in r or "error" in r]
    if skipped:
        md += ["## Points that did not run", "", "| point | why |", "| --- | --- |"]
        for r in skipped:
            p = r["point"]
            md.append(f"| {p['app']} {p['graph']} P={p['devices']} {p['backend']} {p['comm']} ranks={p['ranks']} | "
                      f"{r.get('skipped') or 'error: ' + r.get('error', '')} |")
    with open(os.path.join(rep, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    return os.path.join(rep, "report.md")
