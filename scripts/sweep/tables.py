"""Reads a sweep's results.jsonl and writes the tidy CSV: one row per point
with the point, median/min/max time, validation, exchange and phase
figures, machine and commit."""
import csv
import json

PHASES = ["merge", "compute", "compact", "exchange", "wait"]
COLUMNS = ["app", "graph", "devices", "comm", "backend", "ranks", "status", "median_s", "min_s", "max_s", "repeat",
           "validated", "vertices", "edges", "iterations", "gteps", "updated", "communicated", "communicated_ratio",
           "bytes_structure", "bytes_application", "bytes_status"] + [p + "_s" for p in PHASES] + [
               "transport", "host", "cpu", "cores", "commit", "topology_fingerprint"]


def read(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    pass  # the line a kill cut short
    return rows


def flat(row):
    p, run = row["point"], row.get("run", {})
    multi = run.get("multi", {})
    out = dict(p)
    out["status"] = "skipped: " + row["skipped"] if "skipped" in row else "error: " + row["error"] if "error" in row \
        else "ok"
    for k in ("median_s", "min_s", "max_s", "repeat", "commit", "topology_fingerprint"):
        out[k] = row.get(k, "")
    for k in ("validated", "vertices", "edges", "iterations", "gteps"):
        out[k] = run.get(k, "")
    for k in ("updated", "communicated", "communicated_ratio", "bytes_structure", "bytes_application",
              "bytes_status", "transport"):
        out[k] = multi.get(k, "")
    for ph in PHASES:
        out[ph + "_s"] = multi.get(ph + "_s", "")
    out.update({k: row.get("machine", {}).get(k, "") for k in ("host", "cpu", "cores")})
    return out


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow(flat(r))
