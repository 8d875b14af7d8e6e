// Memory a device exposes to devices of other ranks, for work migration
// across ranks (RGraph, section 5.2): a thief reads the structure and
// the source values of a busy device's blocks, and writes their results
// back, by one-sided operations that the owner takes no part in. Each
// device has one region; a peer addresses it by byte offsets. In a cluster
// the regions are an MPI window (one per rank, passive target); in one
// process they are plain memory, so the protocol runs in unit tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace chatty {

class ExposedMemory {
 public:
  virtual ~ExposedMemory() = default;

  // A fixed selection of items of one size in a region (the in-neighbours
  // a block reads), made once and read as often as wanted: over MPI, an
  // indexed datatype, so one get fetches them all.
  class Pattern {
   public:
    virtual ~Pattern() = default;
    virtual size_t count() const = 0;
  };

  // Device d's region, for a device of this process.
  virtual std::byte* local(int d) = 0;

  // Device `owner`'s region for a reader that reads it in place, where
  // it is mapped into this process and plain loads reach it (shared
  // windows on one node, or one process); null where only get() does. A
  // load of it stands for a get completed at once: what the owner wrote
  // before its sync() and a claim's atomic is there. Over MPI each call
  // counts as one get (the reads it stands for): call it once a claim.
  virtual const std::byte* read_in_place(int /*owner*/) { return nullptr; }

  // Reads `bytes` at `offset` of device `owner`'s region into `into`.
  virtual void get(int owner, size_t offset, void* into, size_t bytes) = 0;
  // Items `items[i]` (in units of `item_bytes`, from `offset`), packed.
  virtual std::unique_ptr<Pattern> pattern(const uint32_t* items, size_t count, size_t item_bytes) = 0;
  virtual void get(int owner, size_t offset, const Pattern& p, void* into) = 0;
  virtual void put(int owner, size_t offset, const void* from, size_t bytes) = 0;

  // Completes the caller's gets and puts to `owner`: what was got has
  // landed, and what was put is in the owner's region before anything the
  // caller does next (the fetch-and-add that reports the block done).
  virtual void complete(int owner) = 0;

  // The owner, around its own accesses: its stores become visible to
  // peers' gets, and peers' completed puts to its loads.
  virtual void sync() = 0;
};

// One process: regions of `bytes[d]` for devices 0..D-1, read and written
// by memcpy; with `mapped`, also read in place (read_in_place() is not
// null), as shared windows are.
std::unique_ptr<ExposedMemory> make_local_exposed(const std::vector<size_t>& bytes, bool mapped = false);

}  // namespace chatty
