// A rank that stops answering without dying (SIGSTOP, a hung node) would
// leave every other rank waiting forever in a collective or on ring space.
// Each rank's watchdog thread beats a word of a window of its own and
// reads the other ranks' words once a second (one-sided: a stopped rank's
// memory stays readable through osc sm and osc ucx); a rank whose beat has
// not moved for the deadline is named, with the phase it was last in, and
// the job ends through MPI_Abort. A rank that is alive but stuck (a thief
// whose claim its owner took back) beats on, so the watchdog also follows
// the ranks it was told of until they finish their superstep.
#pragma once

#include <cstdint>

namespace chatty::mpi {

// Where a rank is, for the line that names it.
// kShare: computing its share of a whole-graph app's work (BC's sources,
// TC's rows), which has no supersteps.
// kResults: its run is over; it gathers, validates or writes the results
// (rank 0 may write for long, or block on a full pipe), or sets up the
// next run.
// kDone: its results are out and it waits for the others before the
// windows are freed.
enum class RankPhase : uint64_t { kLoading = 1, kRunning = 2, kShare = 3, kDone = 4, kResults = 5 };

// Collective (allocates the window); does nothing when timeout_s <= 0 or
// there is one rank.
void start_rank_watchdog(double timeout_s);
// Before MPI_Finalize; every rank, as the window is freed collectively.
void stop_rank_watchdog();
// This rank's phase and superstep, for the others' messages; a local store.
void note_rank_phase(RankPhase phase, uint64_t superstep);
// A device of `rank` held blocks of this rank past the deadline and lost
// them: unless that rank finishes the superstep this rank is in within
// the deadline from now, the job ends with a line naming it.
void note_taken_back(int rank);

}  // namespace chatty::mpi
