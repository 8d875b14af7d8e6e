// The status all-gather and the barrier between ranks without a collective
// call, so that a rank waits only on words in its own memory: a rank puts
// its record into every other rank's exposed words, completes those puts,
// then raises its arrival word there; each rank polls the arrival words of
// its own memory. The fabrics over MPI windows and over RDMA regions run
// this one protocol through their own wire (cpu_cluster/mpi/cluster_mpi.cc,
// cpu_cluster/verbs/verbs_net.cc).
//
// Ranks run the collectives in the same order, so one count numbers them,
// and records alternate between two areas by its parity: a rank writes an
// area again two collectives later, which no peer reaches before it has
// read the area (it must first have raised its own arrival word for the
// collective in between).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cpu_cluster/poll_backoff.h"

namespace chatty {

// What a fabric supplies: one-sided access to each rank's exposed words.
template <typename W>
concept CollectiveWire = requires(W& w, int rank, size_t word, const void* from, size_t bytes, uint64_t n) {
  // `bytes` from `from` into `rank`'s words from `word` on; landed once
  // complete() returns.
  w.put(rank, word, from, bytes);
  // Every put and raise issued so far has landed.
  w.complete();
  // Word `word` of `rank` becomes n, atomically for that rank's reads of it.
  w.raise(rank, word, n);
  // This rank's own word, atomically, acquiring what landed before it.
  { w.read(word) } -> std::same_as<uint64_t>;
  // Between two reads that found nothing new (the library's progress).
  w.idle();
  // This rank's own words from `word` on, once read() saw their arrival.
  { w.view(word) } -> std::same_as<const std::byte*>;
};

class OneSidedCollective {
 public:
  // The protocol's words lie at [first, first + words(ranks, max_bytes)) of
  // each rank's exposed words, all zero at the start.
  OneSidedCollective(int rank, int ranks, size_t max_bytes, size_t first)
      : rank_(rank), ranks_(ranks), area_words_((max_bytes + 7) / 8), first_(first) {}
  static size_t words(int ranks, size_t max_bytes) { return size_t(ranks) + 2 * size_t(ranks) * ((max_bytes + 7) / 8); }

  // The next collective, called by one thread of every rank: `bytes` at
  // `mine` to every rank; on return `gathered` holds every rank's bytes in
  // rank order. With bytes 0, a barrier.
  template <CollectiveWire W>
  void run(W& wire, const std::byte* mine, size_t bytes, std::byte* gathered) {
    const uint64_t seq = ++collectives_;
    if (bytes) {
      for (int r = 0; r < ranks_; ++r)
        if (r != rank_) wire.put(r, area_word(seq & 1, rank_), mine, bytes);
      wire.complete();  // the records land before the arrival words
    }
    for (int r = 0; r < ranks_; ++r)
      if (r != rank_) wire.raise(r, arrival_word(rank_), seq);
    wire.complete();
    for (int r = 0; r < ranks_; ++r)
      for (PollBackoff wait; r != rank_ && wire.read(arrival_word(r)) < seq; wait.pause()) wire.idle();
    for (int r = 0; r < ranks_ && bytes; ++r) {
      const std::byte* from = r == rank_ ? mine : wire.view(area_word(seq & 1, r));
      std::memcpy(gathered + size_t(r) * bytes, from, bytes);
    }
  }

 private:
  size_t arrival_word(int rank) const { return first_ + size_t(rank); }
  size_t area_word(uint64_t parity, int rank) const {
    return first_ + size_t(ranks_) + (size_t(parity) * size_t(ranks_) + size_t(rank)) * area_words_;
  }

  const int rank_, ranks_;
  const size_t area_words_, first_;
  uint64_t collectives_ = 0;
};

}  // namespace chatty
