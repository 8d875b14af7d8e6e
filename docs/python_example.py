# %% [markdown]
# # ChattyGraph from Python: PageRank on a SNAP file, against NetworkX
# Run it as a script (`python3 docs/python_example.py [FILE]`) or cell by cell
# in Jupyter or VS Code. The default file is SNAP's ego-Facebook as the test
# build unpacks it (`build/tests/data/facebook_combined.txt`).

# %%
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import networkx as nx
import numpy as np

import chattygraph as cg

path = sys.argv[1] if len(sys.argv) > 1 else "build/tests/data/facebook_combined.txt"

# %% [markdown]
# Load the file (any format and compression `chatty` reads). SNAP's ids are
# the ones that occur in the file; `g.ids` maps each vertex back to them.

# %%
g = cg.Graph.load(path)
print(g, "- ids:", g.id_scheme, g.ids[:5])

# %% [markdown]
# PageRank on 4 host devices (the graph split in 4 chunks that exchange
# boundary ranks every superstep), with the run's statistics.

# %%
r = cg.pagerank(g, devices=4, tolerance=1e-8)
print(f"{r.stats['iterations']} iterations, {r.stats['compute_s'] * 1e3:.1f} ms, "
      f"{r.stats['multi']['bytes_application'] / 1e6:.2f} MB of boundary ranks exchanged")
ranks = r.to_dict()  # {SNAP id: rank}

# %% [markdown]
# The same ranks from NetworkX (its own implementation), and the largest
# difference.

# %%
G = nx.read_edgelist(path, nodetype=int, create_using=nx.DiGraph, data=False)
t = time.perf_counter()
want = nx.pagerank(G, tol=1e-10, backend="networkx")
print(f"NetworkX: {time.perf_counter() - t:.2f} s; largest difference {max(abs(ranks[v] - want[v]) for v in G):.2e}")

# %% [markdown]
# Or let NetworkX call ChattyGraph: the same function, `backend="chatty"`.

# %%
nx.config.warnings_to_ignore.add("cache")
via_nx = nx.pagerank(G, tol=1e-8, backend="chatty")
t = time.perf_counter()
again = nx.pagerank(G, tol=1e-8, backend="chatty")  # the converted graph comes from NetworkX's cache
print(f"through the backend: {time.perf_counter() - t:.3f} s; largest difference "
      f"{max(abs(again[v] - want[v]) for v in G):.2e}")

# %% [markdown]
# Degree against rank.

# %%
indptr, _, _ = g.csr()
out_degree = np.diff(indptr.astype(np.int64))
fig, ax = plt.subplots(figsize=(5, 4))
ax.loglog(out_degree + 1, r.values, ".", markersize=3, alpha=0.5)
ax.set_xlabel("out-degree + 1")
ax.set_ylabel("PageRank")
ax.set_title(f"{g.name.split('/')[-1]}\n{g.n} vertices, {g.m} edges", fontsize=10)
fig.tight_layout()
out = "python_example_degree_rank.png"
fig.savefig(out, dpi=100)
print("wrote", out)
