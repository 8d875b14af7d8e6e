#!/usr/bin/env python3
"""Writes the synthetic topologies shipped in topology/data/ (the committed
JSON is this script's output; rerun it after changing a figure).

Link figures come from public specifications and the seed paper:
- DGX-1 V100: hybrid cube-mesh as in the ChattyGraph paper's figure 3: each GPU's quad is
  fully connected by NVLink, plus one link to its twin in the other quad;
  bandwidths from the ChattyGraph paper's table 1 (NVLink-V1 17.2 GB/s, NVLink-V2 27.2 GB/s,
  PCIe 2.87 GB/s); host copies and zero-copy from the ChattyGraph paper's table 2.
- DGX A100: NVSwitch, NVLink 3 x12 (300 GB/s per direction), PCIe Gen4 host.
- DGX H100: NVSwitch, NVLink 4 x18 (450 GB/s per direction), PCIe Gen5 host.
- 8x PCIe box: two sockets, two PCIe switches per socket, P2P only under a
  common switch or root complex, none across sockets."""
import json
import os

SIZES = [4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20]


def cost(lat_us, gbps, samples=None):
    c = {"latency_us": lat_us, "bandwidth_gbps": gbps}
    c["samples"] = samples or [[s, round(lat_us + s / (gbps * 1e3), 3)] for s in SIZES]
    return c


def topology(name, gpu, n, host, kind_of, p2p_of, nccl, host_copy, zero_copy):
    gpus = []
    for i in range(n):
        g = dict(gpu)
        g.update(index=i, pci_bus_id=f"0000:{0x18 + 0x10 * i:02x}:00.0", numa_node=host["gpu_numa"][i],
                 cpu_affinity=host["affinity"][host["gpu_numa"][i]], host_copy=host_copy, zero_copy=zero_copy)
        gpus.append(g)
    links = []
    for a in range(n):
        for b in range(n):
            if a == b:
                continue
            kind, lanes, version = kind_of(a, b)
            p2p = p2p_of(a, b, kind, lanes)
            links.append({"from": a, "to": b, "kind": kind, "nvlinks": lanes, "nvlink_version": version,
                          "peer_access": p2p is not None, "perf_rank": 0 if kind.startswith("NV") else 1,
                          "native_atomics": kind.startswith("NV"), "p2p": p2p or {"latency_us": 0, "bandwidth_gbps": 0}})
    return {"schema": "chattygraph-topology/1", "name": name, "source": "synthetic",
            "host": {k: host[k] for k in ("sockets", "numa_nodes", "cores", "cpu")},
            "gpus": gpus, "links": links, "nccl_broadcast": nccl}


def dgx1():
    # The ChattyGraph paper's figure 3: NV2 = double link (NVLink-V2 rate), NV1 = single link (V1 rate).
    nv = {(0, 1): 1, (0, 2): 1, (0, 3): 2, (0, 4): 2, (1, 2): 2, (1, 3): 1, (1, 5): 2, (2, 3): 2, (2, 6): 1,
          (3, 7): 1, (4, 5): 1, (4, 6): 1, (4, 7): 2, (5, 6): 2, (5, 7): 1, (6, 7): 2}

    def kind(a, b):
        lanes = nv.get((min(a, b), max(a, b)), 0)
        if lanes:
            return ("NV", lanes, 2 if lanes == 2 else 1)
        same_socket = (a < 4) == (b < 4)
        return ("PHB" if same_socket else "SYS", 0, 0)

    def p2p(a, b, k, lanes):
        if k == "NV":
            return cost(9.0, 27.2 if lanes == 2 else 17.2)
        return None  # no P2P across the two planes without NVLink

    host = {"sockets": 2, "numa_nodes": 2, "cores": 40, "cpu": "2x Intel Xeon E5-2698 v4",
            "gpu_numa": [0, 0, 0, 0, 1, 1, 1, 1], "affinity": ["0-19,40-59", "20-39,60-79"]}
    kb = 1 << 10
    zero = cost(15.0, 0.3, [[4 * kb, 17], [16 * kb, 37], [64 * kb, 118], [256 * kb, 621], [1024 * kb, 3317],
                            [4096 * kb, 25272], [16384 * kb, 174579]])
    copy = cost(24.0, 0.6, [[4 * kb, 25], [16 * kb, 50], [64 * kb, 124], [256 * kb, 372], [1024 * kb, 1419],
                            [4096 * kb, 5307], [16384 * kb, 28302]])
    gpu = {"name": "Tesla V100-SXM2-32GB", "memory_bytes": 32 << 30, "sms": 80, "compute_capability": "7.0"}
    return topology("dgx1-v100", gpu, 8, host, kind, p2p, cost(30.0, 17.0), copy, zero)


def nvswitch(name, gpu, lanes, version, p2p_gbps, nccl_gbps, host, host_gbps):
    def kind(a, b):
        return ("NVS", lanes, version)

    def p2p(a, b, k, l):
        return cost(4.0, p2p_gbps)

    return topology(name, gpu, 8, host, kind, p2p, cost(18.0, nccl_gbps), cost(8.0, host_gbps),
                    cost(2.0, host_gbps * 0.8))


def dgx_a100():
    host = {"sockets": 2, "numa_nodes": 8, "cores": 128, "cpu": "2x AMD EPYC 7742",
            "gpu_numa": [3, 3, 1, 1, 7, 7, 5, 5], "affinity": [f"{16 * i}-{16 * i + 15}" for i in range(8)]}
    gpu = {"name": "NVIDIA A100-SXM4-80GB", "memory_bytes": 80 << 30, "sms": 108, "compute_capability": "8.0"}
    return nvswitch("dgx-a100", gpu, 12, 3, 250.0, 230.0, host, 24.0)


def dgx_h100():
    host = {"sockets": 2, "numa_nodes": 2, "cores": 112, "cpu": "2x Intel Xeon Platinum 8480C",
            "gpu_numa": [0, 0, 0, 0, 1, 1, 1, 1], "affinity": ["0-55", "56-111"]}
    gpu = {"name": "NVIDIA H100 80GB HBM3", "memory_bytes": 80 << 30, "sms": 132, "compute_capability": "9.0"}
    return nvswitch("dgx-h100", gpu, 18, 4, 370.0, 350.0, host, 50.0)


def pcie8():
    def kind(a, b):
        if a // 4 != b // 4:
            return ("SYS", 0, 0)
        return ("PIX", 0, 0) if a // 2 == b // 2 else ("PHB", 0, 0)

    def p2p(a, b, k, lanes):
        return {"PIX": cost(12.0, 21.0), "PHB": cost(15.0, 11.0)}.get(k)

    host = {"sockets": 2, "numa_nodes": 2, "cores": 64, "cpu": "2x Intel Xeon Gold 6338",
            "gpu_numa": [0, 0, 0, 0, 1, 1, 1, 1], "affinity": ["0-31", "32-63"]}
    gpu = {"name": "NVIDIA A40", "memory_bytes": 48 << 30, "sms": 84, "compute_capability": "8.6"}
    return topology("pcie8", gpu, 8, host, kind, p2p, cost(35.0, 9.0), cost(10.0, 22.0), cost(4.0, 18.0))


def main():
    out = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "topology", "data")
    os.makedirs(out, exist_ok=True)
    for t in [dgx1(), dgx_a100(), dgx_h100(), pcie8()]:
        with open(os.path.join(out, t["name"] + ".json"), "w") as f:
            json.dump(t, f, indent=1)
            f.write("\n")
        print("wrote", t["name"])


if __name__ == "__main__":
    main()
