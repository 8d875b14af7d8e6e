"""The library over a communicator of the program's own: runs
tests/api_ranks (its ranks split MPI_COMM_WORLD into a cluster of two and
one of one and compare their answers) under `mpirun -np 3`.

    python3 tests/api_ranks_test.py API_RANKS GRAPH"""
import os
import shutil
import subprocess
import sys

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS="1")
for k, v in (("OMPI_MCA_pml", "ob1"), ("OMPI_MCA_btl", "self,vader")):
    ENV.setdefault(k, v)


def main():
    program, graph = sys.argv[1:3]
    mpirun = shutil.which(os.environ.get("MPIRUN", "mpirun"))
    if not mpirun:
        print("api_ranks_test: no mpirun; skipped")
        sys.exit(77)
    p = subprocess.run([mpirun, "-np", "3", program, graph, "107"], capture_output=True, text=True, timeout=240,
                       env=ENV)
    if p.returncode != 0 or "api_ranks:" not in p.stdout:
        sys.exit(f"api_ranks_test: exit {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-3000:]}")
    print(p.stdout.strip())


if __name__ == "__main__":
    main()
