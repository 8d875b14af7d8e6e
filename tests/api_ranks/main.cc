// The library's runs over a communicator of the program's own, under
// `mpirun -np 3`: world ranks 0 and 1 split off as one cluster of two ranks,
// rank 2 as a cluster of one; both run BFS, WCC, PageRank and k-core on the
// same graph with --validate, rank 2 sends its values to rank 0, which
// requires them equal (PageRank within 1e-6 in L1) and the reports to
// name 2 and 1 ranks. A run over another communicator afterwards must be
// refused. Exits 0 and prints one line on rank 0 when all holds.
//   api_ranks GRAPH SOURCE
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "api/chattygraph.h"
#include "api/mpi.h"

namespace {

int fail(int rank, const std::string& why) {
  std::fprintf(stderr, "api_ranks: rank %d: %s\n", rank, why.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}

bool names_ranks(const chattygraph::Result& r, int ranks) {
  return r.json.find("\"ranks\":" + std::to_string(ranks) + ",") != std::string::npos;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0, world = 0, size = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 3 || size != 3) return fail(world, "usage: mpirun -np 3 api_ranks GRAPH SOURCE");
  const int color = world < 2 ? 0 : 1;
  MPI_Comm part;
  MPI_Comm_split(MPI_COMM_WORLD, color, world, &part);
  int checked = 0;
  try {
    chattygraph::LoadOptions undirected;
    undirected.undirected = true;
    const chattygraph::Graph g = chattygraph::Graph::load(argv[1], undirected);
    for (const char* app : {"bfs", "wcc", "pr", "kcore"}) {
      chattygraph::Options o;
      o.communicator = chattygraph::communicator(part);
      o.validate = true;
      o.threads = 1;
      if (std::string(app) == "bfs") o.source = std::strtoull(argv[2], nullptr, 10);
      if (std::string(app) == "pr") o.tolerance = 1e-9;
      const chattygraph::Result r = chattygraph::run(g, app, o);
      if (!r.validated) return fail(world, std::string(app) + ": " + r.stats.validation);
      if (!names_ranks(r, color == 0 ? 2 : 1)) return fail(world, std::string(app) + ": the report says " + r.json);
      const bool reals = !r.reals.empty();
      const int n = int(reals ? r.reals.size() : r.ints.size());
      if (world == 2) {
        if (reals)
          MPI_Send(r.reals.data(), n, MPI_FLOAT, 0, 7, MPI_COMM_WORLD);
        else
          MPI_Send(r.ints.data(), n, MPI_UNSIGNED, 0, 7, MPI_COMM_WORLD);
      } else if (world == 0) {
        std::vector<float> theirs_r(reals ? size_t(n) : 0);
        std::vector<unsigned> theirs_i(reals ? 0 : size_t(n));
        if (reals) {
          MPI_Recv(theirs_r.data(), n, MPI_FLOAT, 2, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          double l1 = 0;
          for (int v = 0; v < n; ++v) l1 += std::fabs(double(theirs_r[size_t(v)]) - r.reals[size_t(v)]);
          if (l1 > 1e-6) return fail(world, std::string(app) + ": 2 ranks and 1 differ by " + std::to_string(l1));
        } else {
          MPI_Recv(theirs_i.data(), n, MPI_UNSIGNED, 2, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          if (theirs_i != r.ints) return fail(world, std::string(app) + ": 2 ranks and 1 differ");
        }
        ++checked;
      }
    }
    // A process has one cluster: a run over another communicator is refused.
    chattygraph::Options other;
    other.communicator = chattygraph::communicator(MPI_COMM_WORLD);
    try {
      chattygraph::run(g, "bfs", other);
      return fail(world, "a run over a second communicator was not refused");
    } catch (const chattygraph::Error& e) {
      if (std::string(e.what()).find("cannot join") == std::string::npos)
        return fail(world, std::string("the second communicator's refusal: ") + e.what());
    }
  } catch (const chattygraph::Error& e) {
    return fail(world, std::string("error: ") + e.what());
  }
  MPI_Comm_free(&part);
  if (world == 0)
    std::printf(
        "api_ranks: bfs, wcc, pr, kcore over a communicator of 2 ranks equal 1 rank's (%d checked), "
        "validated; a second communicator refused\n",
        checked);
  MPI_Finalize();
  return 0;
}
