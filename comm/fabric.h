// What crosses devices besides the exchanged records: meeting at a
// barrier, agreeing on a superstep's status (an all-gather of one fixed-size
// record per device), and the shared words of the work-migration worklists
// (atomic read, write, compare-and-swap and fetch-and-add on words a device
// exposes to its peers). The drivers reach other devices only through this
// and the transports, so devices may be threads of one process
// (ThreadFabric) or, in the cluster layer, ranks over MPI one-sided
// operations (words in an MPI window, all-gather by MPI_Allgather).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace chatty {

class Fabric {
 public:
  virtual ~Fabric() = default;
  virtual int devices() const = 0;
  // Whether devices a and b are in one process (one may read the other's
  // arrays through a pointer).
  virtual bool shares_memory(int /*a*/, int /*b*/) const { return true; }

  // Called by every device's driving thread; returns once all have called.
  virtual void barrier(int d) = 0;

  // Every device contributes `bytes` at `mine` (the same size on all); on
  // return `all` holds the P contributions in device order. Implies a
  // barrier. Successive calls may overlap: a device may enter the next one
  // while a slower one still reads this one's result.
  virtual void all_gather(int d, const void* mine, size_t bytes, void* all) = 0;

  // Reserves `count` shared words on every device and returns the index of
  // the first; all are zero. Called before the devices start, by one thread.
  // The words of one reservation lie together (in one process, on shared
  // cache lines) and apart from other reservations'.
  virtual int reserve_words(int count) = 0;

  // Atomic operations on word `w` of device `owner`, by any device. A load
  // acquires and a store releases; the read-modify-writes do both, so what
  // the owner wrote before publishing a word is visible to a peer that
  // reads or wins it.
  virtual uint64_t load(int owner, int w) = 0;
  virtual void store(int owner, int w, uint64_t value) = 0;
  virtual bool compare_exchange(int owner, int w, uint64_t& expected, uint64_t desired) = 0;
  virtual uint64_t fetch_add(int owner, int w, uint64_t add) = 0;
};

// Devices as the threads of one OpenMP team in this process: the barrier
// is the team's, and every device's words live in this process's memory.
// Devices drive from the outer team of a multi-device run, one thread each.
// With `devices_per_rank`, consecutive groups of that many devices act as
// ranks (shares_memory holds only inside a group), so the protocols
// between ranks run in unit tests.
std::unique_ptr<Fabric> make_thread_fabric(int devices, int devices_per_rank = 0);

}  // namespace chatty
