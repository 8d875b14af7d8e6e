// A rank stopped or hung before the ranks' watchdogs run (before or in
// MPI_Init, the first collectives, the allocation of the watchdog's own
// window) leaves the others waiting in a collective, with no window of
// its to read. Each process's own timer ends it once the deadline passes
// before the ranks met, and the launcher ends the rest. Rank 0 says so;
// another rank only if it still runs 2 s later (rank 0 was the one
// stopped). The rank cannot be named: inside MPI_Init nothing can be
// asked of the others.
#pragma once

namespace chatty::mpi {

// From now on, until disarm_start_guard, for `timeout_s` seconds (none
// when <= 0). `rank` as the launcher numbered this process.
void arm_start_guard(double timeout_s, int rank);
// The ranks met (and the watchdogs run, where they do): no deadline.
void disarm_start_guard();

}  // namespace chatty::mpi
