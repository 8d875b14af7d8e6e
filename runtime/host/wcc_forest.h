// A host device's union-find mechanisms for the connectivity driver
// (runtime/drivers/connectivity.h): the sample and rest links on the
// device's team, and the Forest that encodes what a device tells its peers
// and takes in what they tell it.
// After the sample most boundary vertices hang under one root, the device's
// local giant. Those travel as bits (a 32-bit word of members per record)
// under the giant's root, the rest as (vertex, root) pairs. A receiver that
// finds a member of its own local giant among the bits joins the two giants
// once; a member it holds in another tree it links to the sender's giant; a
// member it has never touched stays pending: a fact about a vertex outside
// every tree of the receiver cannot change the receiver's labels until it
// links that vertex, and touching a vertex (linking it, or a record naming
// it) applies its pending facts first. On kron:20 over two devices this
// turns some 320k random union-find writes per device into a pass over bit
// words.
// Only vertices peers can hold in a tree need to travel: the boundary
// vertices and every root ever sent ("shared"; the exchange is a broadcast,
// so every device has the same set). An inner vertex that was never sent is
// in no peer's forest, so re-parenting it tells peers nothing, and the shared
// vertices of its tree are sent with their new root.
#pragma once

#include <omp.h>

#include <atomic>
#include <bit>
#include <cstdint>
#include <vector>

#include "kernels/cpu/union_find.h"
#include "runtime/base/hash.h"
#include "runtime/engine/superstep_decisions.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/migration/work_migration.h"

namespace chatty::host::wcc {

// A bit per vertex in 32-bit words, the width of a record's value, so a
// word of members travels as one (word index, bits) record.
class Bits32 {
 public:
  explicit Bits32(size_t n = 0) : w_((n + 31) / 32, 0) {}
  bool get(vid_t v) const { return (w_[v >> 5] >> (v & 31)) & 1; }
  void set(vid_t v) { w_[v >> 5] |= 1u << (v & 31); }
  void reset(vid_t v) { w_[v >> 5] &= ~(1u << (v & 31)); }
  void set_range(vid_t lo, vid_t hi) {
    for (vid_t v = lo; v < hi;)
      if ((v & 31) == 0 && hi - v >= 32) {
        w_[v >> 5] = ~0u;
        v += 32;
      } else {
        set(v++);
      }
  }
  // Sets exactly the vertices whose byte flag is non-zero (flags: n bytes).
  void assign_flags(const uint8_t* flags, size_t n) {
    const size_t whole = n / 32;
    for (size_t w = 0; w < whole; ++w) {  // fixed trip count: vectorised to a byte compare and mask
      uint32_t bits = 0;
      for (unsigned j = 0; j < 32; ++j) bits |= uint32_t(flags[w * 32 + j] != 0) << j;
      w_[w] = bits;
    }
    for (size_t v = whole * 32; v < n; ++v)
      if (flags[v]) set(vid_t(v));
  }
  uint32_t word(size_t i) const { return w_[i]; }
  uint32_t& word(size_t i) { return w_[i]; }

 private:
  std::vector<uint32_t> w_;
};

// Calls f(v) for every set bit of a word whose first vertex is w * 32.
template <typename F>
void for_bits(size_t w, uint32_t bits, F f) {
  for (; bits; bits &= bits - 1) f(vid_t(w * 32 + size_t(std::countr_zero(bits))));
}

// Runs link(u, push) over the owned vertices on the device's threads, where
// push(v) records a vertex (kNoRoot is dropped) and link returns the edges
// it looked at; appends the vertices to `list`, returns the edges.
template <typename Link>
uint64_t collect(vid_t lo, vid_t hi, std::vector<vid_t>& list, Link link) {
  uint64_t edges = 0;
  if (omp_get_max_threads() == 1) {  // a device of one core: no team to start, no lists to join
    auto push = [&list](vid_t v) {
      if (v != cpu::kNoRoot) list.push_back(v);
    };
    for (vid_t u = lo; u < hi; ++u) edges += link(u, push);
    return edges;
  }
  // Each thread its own copy of `link` and what it captured (a shared one
  // would be read through a pointer that a label store may alias).
#pragma omp parallel firstprivate(link) reduction(+ : edges)
  {
    std::vector<vid_t> mine;
    auto push = [&mine](vid_t v) {
      if (v != cpu::kNoRoot) mine.push_back(v);
    };
#pragma omp for schedule(dynamic, 1024) nowait
    for (vid_t u = lo; u < hi; ++u) edges += link(u, push);
#pragma omp critical(chatty_wcc_collect)
    list.insert(list.end(), mine.begin(), mine.end());
  }
  return edges;
}

// A team of one links with plain loads and stores (no CAS fences).
template <bool kAlone>
vid_t unite(vid_t u, vid_t v, vid_t* label) {
  return kAlone ? cpu::uf_union_alone(u, v, label) : cpu::uf_union(u, v, label);
}

// Sample round r over owned vertices [lo, hi) on the calling thread:
// links each to its r-th neighbour; returns the edges linked.
template <bool kAlone>
uint64_t link_sample(const CsrChunk& chunk, vid_t lo, vid_t hi, eid_t r, vid_t* label) {
  constexpr vid_t kAhead = 16;
  const CsrChunk out = chunk;  // a copy: through a reference, a label store could be a store to its bounds
  const vid_t* tgt = out.targets;
  uint64_t edges = 0;
  for (vid_t u = lo; u < hi; ++u) {
    // A union is a chain of dependent cache misses: the neighbour's id
    // (one line per vertex), its label, the labels up its tree. The id is
    // fetched four strides ahead and the label one stride ahead, so that
    // they overlap this union's.
    if (u + 4 * kAhead < hi) __builtin_prefetch(tgt + out.begin(u + 4 * kAhead));  // the line of its r-th, mostly
    if (u + kAhead < hi) {
      const eid_t e = out.begin(u + kAhead) + r;
      if (e < out.end(u + kAhead)) __builtin_prefetch(label + tgt[e]);
    }
    const eid_t e = out.begin(u) + r;
    if (e >= out.end(u)) continue;
    unite<kAlone>(u, tgt[e], label);
    ++edges;
  }
  return edges;
}

// A phase of the sample stage over a device's owned vertices: link round
// `round`, or (round < 0) compression. Its blocks are on the device's
// worklist, so an idle peer links (with CAS) or flattens them in the
// owner's forest: the sample is where the devices' work differs most (how
// deep the trees of a chunk grow depends on where its ids lie), and unions
// and flattens are the same whoever runs them.
struct SampleTask {
  vid_t* label = nullptr;
  const CsrChunk* out = nullptr;  // the owner's out-edges
  int round = -1;
};

struct SampleSums {
  uint64_t edges = 0, migrated = 0;
  uint64_t inner = 0;  // of a compression: vertices that are not roots
  SampleSums& operator+=(const SampleSums& o) {
    edges += o.edges, migrated += o.migrated, inner += o.inner;
    return *this;
  }
};

inline void run_sample_block(const SampleTask& t, vid_t lo, vid_t hi, SampleSums& s) {
  if (t.round < 0)
    s.inner += cpu::uf_compress_serial(lo, hi, t.label);
  else
    s.edges += link_sample<false>(*t.out, lo, hi, eid_t(t.round), t.label);
}

// Runs one phase on device d's team (and whichever peers run out of work).
inline SampleSums sample_phase(MigrationBoard<SampleTask>& board, int d, const SampleTask& t, vid_t lo, vid_t hi) {
  constexpr vid_t kBlock = 4096;
  auto work = [](const SampleTask& task, vid_t first, vid_t last, SampleSums& s) {
    run_sample_block(task, first, last, s);
  };
  board.open(d, t, lo, hi, kBlock);
  SampleSums sums;
  board.run_team(d, sums, work);
  return sums;
}

// The edges after the sample of owned vertices outside the giant; the
// roots re-parented go to `unions`, and meet(v) sees every neighbour
// before it is linked. On an undirected graph the giant's inner edges
// cannot change anything, and every edge with one end outside it is linked
// from that end.
template <bool kAlone, typename Meet>
uint64_t link_rest(const CsrChunk& out, vid_t lo, vid_t hi, eid_t skip, vid_t giant, vid_t* label,
                   std::vector<vid_t>& unions, Meet meet) {
  const vid_t* tgt = out.targets;
  // `out` copied into the closure: a label store cannot be a store to it.
  return collect(lo, hi, unions, [=, &meet](vid_t u, auto push) -> uint64_t {
    if (std::atomic_ref<vid_t>(label[u]).load(std::memory_order_relaxed) == giant) return 0;
    const eid_t first = out.begin(u) + skip, last = out.end(u);
    for (eid_t e = first; e < last; ++e) {
      meet(tgt[e]);
      push(unite<kAlone>(u, tgt[e], label));
    }
    return last > first ? last - first : 0;
  });
}

// One device's forest and what it knows of its peers' local giants. The
// methods run on the device's driving thread alone.
class Forest {
 public:
  Forest(vid_t* label, vid_t n, int devices, int self)
      : label(label),
        shared(n),
        touched(n),
        giant_(n),
        peer_giant_(size_t(devices), cpu::kNoRoot),
        pending_(size_t(devices)),
        pending_any_(n) {
    for (int p = 0; p < devices; ++p)
      if (p != self) pending_[size_t(p)] = Bits32(n);
  }

  vid_t* const label;
  Bits32 shared;   // boundary vertices and roots ever sent
  Bits32 touched;  // owned vertices and every vertex a link or a record named

  // Applies the facts about y that wait for y to be touched, then marks it.
  // Peers' giant roots are touched when announced, so this never recurses.
  void touch(vid_t y) {
    if (touched.get(y)) return;
    touched.set(y);
    if (!pending_any_.get(y)) return;
    pending_any_.reset(y);
    for (size_t p = 0; p < pending_.size(); ++p)
      if (peer_giant_[p] != cpu::kNoRoot && pending_[p].get(y)) {
        pending_[p].reset(y);
        cpu::uf_link_alone(y, peer_giant_[p], label);
      }
  }

  // A (vertex, root) record from a peer.
  void apply(vid_t x, vid_t root) {
    shared.set(root);
    touch(x);
    touch(root);
    cpu::uf_link_alone(x, root, label);
  }

  // The sample's news for peers, once every boundary vertex points at its
  // root: the members of the local giant (the root sampled boundary
  // vertices hang under most) as bit words after two header records (the
  // giant's root; the number of words), then every other boundary vertex
  // that is no longer a root as (vertex, root). Marks what the sample
  // touched: a remote vertex in a tree here is the neighbour of an owned
  // vertex, so a boundary vertex, and every tree holding one has a boundary
  // vertex that is not its root, or is a single vertex.
  void describe(const std::vector<vid_t>& boundary, std::vector<Update<vid_t>>& out) {
    std::vector<vid_t> sampled;  // roots of sampled boundary vertices that are not roots themselves
    for (uint64_t i = 0; i < 1024 && !boundary.empty(); ++i) {
      const vid_t x = boundary[size_t(hash2(0xB0, i) % boundary.size())];
      if (label[x] != x) sampled.push_back(label[x]);
    }
    const vid_t g = most_frequent(sampled, cpu::kNoRoot).first;
    out.assign(2, Update<vid_t>{cpu::kNoRoot, cpu::kNoRoot});
    std::vector<Update<vid_t>> pairs;
    size_t word = ~size_t(0);
    uint32_t bits = 0;
    auto flush = [&] {
      if (bits) out.push_back(Update<vid_t>{vid_t(word), bits});
    };
    for (vid_t x : boundary) {  // ascending, so words come out whole and in order
      const vid_t r = label[x];
      if (r == x) continue;
      touched.set(x);
      touched.set(r);
      if (r != g) {
        pairs.push_back(Update<vid_t>{x, r});
        shared.set(r);
        continue;
      }
      giant_.set(x);
      if (x >> 5 != word) flush(), word = x >> 5, bits = 0;
      bits |= 1u << (x & 31);
    }
    flush();
    const size_t words = out.size() - 2;
    if (words) {
      out[0].value = g;
      out[1].value = vid_t(words);
      shared.set(g);
      giant_root_ = g;
    }
    out.insert(out.end(), pairs.begin(), pairs.end());
  }

  // Takes in what `describe` made on peer p.
  void take_description(int p, const Update<vid_t>* rec, size_t count) {
    if (count < 2) return;
    const vid_t g = rec[1].value == cpu::kNoRoot ? cpu::kNoRoot : rec[0].value;
    const size_t words = g == cpu::kNoRoot ? 0 : size_t(rec[1].value);
    if (g != cpu::kNoRoot) {
      shared.set(g);
      touch(g);
      peer_giant_[size_t(p)] = g;
    }
    Bits32& pending = pending_[size_t(p)];
    bool joined = false;
    for (size_t i = 2; i < 2 + words; ++i) {
      const size_t w = rec[i].v;
      const uint32_t bits = rec[i].value, mine = giant_.word(w);
      if ((bits & mine) && !joined) {  // a vertex in both giants: they are one component
        cpu::uf_link_alone(g, giant_root_, label);
        joined = true;
      }
      const uint32_t rest = bits & ~mine;
      for_bits(w, rest & touched.word(w), [&](vid_t x) { cpu::uf_link_alone(x, g, label); });
      // Untouched members wait, unless another peer's giant also has them:
      // then they join the two giants, which the receiver may hold.
      const uint32_t untouched = rest & ~touched.word(w);
      const uint32_t again = untouched & pending_any_.word(w);
      for_bits(w, again, [&](vid_t x) {
        touch(x);
        cpu::uf_link_alone(x, g, label);
      });
      pending.word(w) |= untouched & ~again;
      pending_any_.word(w) |= untouched & ~again;
    }
    for (size_t i = 2 + words; i < count; ++i) apply(rec[i].v, rec[i].value);
  }

 private:
  Bits32 giant_;  // boundary vertices this device described as its giant's
  vid_t giant_root_ = cpu::kNoRoot;
  std::vector<vid_t> peer_giant_;  // per device: the root its giant was described under
  std::vector<Bits32> pending_;    // per device: its giant's members not yet touched here
  Bits32 pending_any_;
};

}  // namespace chatty::host::wcc
