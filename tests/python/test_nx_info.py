"""The NetworkX backend's info: NetworkX reads it from every installed
backend at import, so it must load nothing of the engine, and it lists the
functions the backend implements, which the engine's registry names."""

import os
import subprocess
import sys

import networkx as nx


def test_importing_networkx_loads_nothing_of_the_engine():
    code = (
        "import networkx, sys; networkx.utils.backends.backends; "
        "info = networkx.utils.backends.backend_info['chatty']; "
        "print(len(info['functions']) > 0, 'chattygraph' in sys.modules, 'chattygraph._core' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ), check=True)
    assert out.stdout.split() == ["True", "False", "False"], out.stdout + out.stderr


def test_the_info_lists_what_the_backend_implements():
    from _chattygraph_nx import get_info

    from chattygraph import _core, nx_backend

    info = get_info()
    registry = {name for spec in _core.apps() for name in spec["networkx"].split()}
    assert set(info["functions"]) == registry
    assert {name for name in dir(nx_backend.backend_interface) if name in registry} == registry
    for f in info["functions"].values():
        assert set(f["additional_parameters"]) == {
            "devices : int, optional",
            "backend : str, optional",
            "threads : int, optional",
        }
    assert nx.utils.backends.backend_info["chatty"]["functions"].keys() == info["functions"].keys()


def test_should_run_leaves_small_graphs_to_networkx():
    from chattygraph import nx_backend

    should = nx_backend.backend_interface.should_run
    small, large = nx.path_graph(10), nx.fast_gnp_random_graph(20_000, 4 / 20_000, seed=1)
    assert isinstance(should("pagerank", (small,), {}), str)
    assert "faster" in should("pagerank", (small,), {})
    assert should("pagerank", (large,), {}) is True
    assert isinstance(should("connected_components", (nx.fast_gnp_random_graph(3000, 4 / 3000, seed=1),), {}), str)
    converted = nx_backend.backend_interface.convert_from_nx(small)
    assert should("pagerank", (converted,), {}) is True
    # Automatic dispatch runs a small graph on NetworkX (its float64 answer,
    # not the engine's float32 ranks); an explicit backend runs here anyway.
    with nx.config.backend_priority(algos=["chatty"]):
        assert nx.pagerank(small) == nx.pagerank(small, backend="networkx")
    assert nx.pagerank(small, backend="chatty") != nx.pagerank(small, backend="networkx")
