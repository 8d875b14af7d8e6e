// Runs over the processes of an MPI communicator of the program's own:
//
//   #include <chattygraph/mpi.h>
//   MPI_Comm half;  // e.g. MPI_Comm_split of MPI_COMM_WORLD
//   chattygraph::Options o;
//   o.communicator = chattygraph::communicator(half);
//   chattygraph::Result r = chattygraph::run(g, "pagerank", o);  // on every process of `half`
//
// Only this header needs <mpi.h>: the library takes the communicator's
// Fortran handle, which every MPI library (and mpi4py's py2f) gives.
#pragma once

#include <mpi.h>

namespace chattygraph {

inline int communicator(MPI_Comm comm) { return int(MPI_Comm_c2f(comm)); }

}  // namespace chattygraph
