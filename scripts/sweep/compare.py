"""Ratio of two sweeps' times point by point (B / A), with the spread: the
ratio of medians and the range min_B/max_A .. max_B/min_A the repeats allow."""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import points as pts  # noqa: E402
from . import tables  # noqa: E402


def results_of(path):
    return tables.read(os.path.join(path, "results.jsonl") if os.path.isdir(path) else path)


def compare(a_path, b_path, out_png=None):
    a = {pts.key(r["point"]): r for r in results_of(a_path) if "run" in r}
    b = {pts.key(r["point"]): r for r in results_of(b_path) if "run" in r}
    common = sorted(set(a) & set(b), key=str)
    if not common:
        print("compare: no point ran in both")
        return 1
    print(f"B / A compute time ({len(common)} points in both; < 1 means B is faster)")
    print(f"{'app':5} {'graph':16} {'P':>3} {'comm':10} {'backend':7} {'A ms':>9} {'B ms':>9} {'B/A':>6}  range")
    ratios, labels, lo, hi = [], [], [], []
    for k in common:
        ra, rb = a[k], b[k]
        r = rb["median_s"] / ra["median_s"]
        low, high = rb["min_s"] / ra["max_s"], rb["max_s"] / ra["min_s"]
        mark = "  faster" if high < 1 else "  slower" if low > 1 else ""
        print(f"{k[0]:5} {k[1]:16} {k[2]:>3} {k[3]:10} {k[4]:7} {ra['median_s'] * 1e3:9.2f} "
              f"{rb['median_s'] * 1e3:9.2f} {r:6.2f}  {low:.2f}-{high:.2f}{mark}")
        ratios.append(r), labels.append(f"{k[0]} {k[1]} P={k[2]} {k[3]}"), lo.append(r - low), hi.append(high - r)
    if out_png:
        fig, ax = plt.subplots(figsize=(7, 0.3 * len(common) + 1.5))
        y = range(len(common))
        ax.barh(y, ratios, xerr=[lo, hi], color=["#55a868" if x < 1 else "#c44e52" for x in ratios], capsize=2)
        ax.axvline(1, color="k", lw=1)
        ax.set_yticks(list(y), labels, fontsize=7)
        ax.set(xlabel="B / A compute time (median; bars: the range the repeats allow)",
               title=f"{os.path.basename(os.path.normpath(b_path))} against {os.path.basename(os.path.normpath(a_path))}")
        fig.tight_layout()
        fig.savefig(out_png, dpi=110)
        plt.close(fig)
        print(f"plot: {out_png}")
    return 0
