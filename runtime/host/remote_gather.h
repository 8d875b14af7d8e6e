// Work migration of a gather across ranks (RGraph, section 5.2): an idle
// device claims blocks from the back of a busy device's worklist on
// another rank (the claim is the fabric's compare-and-swap on the owner's
// words, as in-process), then computes them with what it reads from the
// owner's exposed region and puts the results back before it reports the
// blocks done. What it reads of a block's structure, its rows of in-edges,
// stays in its migration cache for the next superstep; the sources'
// published values it reads every time, one get per block (of a span, or
// through an indexed pattern).
#pragma once

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "kernels/cpu/gather_pull.h"
#include "runtime/graph/graph_chunk.h"
#include "runtime/graph/partition.h"
#include "runtime/host/claim_pacer.h"
#include "runtime/host/exposed_rows.h"
#include "runtime/host/migration_cache.h"
#include "runtime/migration/exposed_memory.h"

namespace chatty::host {

// Where a device's gather lies in its exposed region, computed from what
// every device knows (|V| and the owner's row count), so a thief needs no
// table: a header (which buffer holds the current published values, the
// sink mass, and the owner's time per block), both published-value
// buffers, the owned values, the rows' in-edge offsets (from 0) and,
// last, their sources.
template <typename V>
struct GatherRegion {
  static constexpr size_t kHeader = 0;
  size_t contrib[2] = {0, 0}, val = 0, offsets = 0, targets = 0;

  GatherRegion(vid_t n, vid_t rows) {
    contrib[0] = 4096;  // a page: second_buffer_offset skews the second from it
    contrib[1] = contrib[0] + cpu::second_buffer_offset(size_t(n) * sizeof(V));
    val = up(contrib[1] + size_t(n) * sizeof(V));
    offsets = up(val + size_t(rows) * sizeof(V));
    targets = up(offsets + (size_t(rows) + 1) * sizeof(eid_t));
  }
  size_t bytes(eid_t edges) const { return targets + size_t(edges) * sizeof(vid_t); }

 private:
  static size_t up(size_t b) { return (b + 63) / 64 * 64; }
};

// The owner, before its run: faults its region in and writes its rows of
// in-edges `in` (offsets from 0) there, as a NIC's memory registration
// would at load time.
template <typename V>
void expose_gather(std::byte* region, const GatherRegion<V>& r, const CsrChunk& in) {
  expose_rows(region, r.targets, in, r.offsets, r.targets);
}

// The header of a superstep's gather: which published-value buffer is
// current, the sink mass, and the owner's time per block (0: not known).
inline void write_gather_header(std::byte* region, int current, double dangling, double seconds_per_block) {
  const uint64_t h[3] = {uint64_t(current), std::bit_cast<uint64_t>(dangling),
                         std::bit_cast<uint64_t>(seconds_per_block)};
  std::memcpy(region, h, sizeof(h));
}

// One device's computation of blocks it claimed from devices of other
// ranks, paced by a ClaimPacer. Not thread-safe: one thread of the
// device's team helps them.
template <typename P>
class RemoteGather {
 public:
  using V = typename P::Value;
  // `block`: the owners' worklist blocks, in vertices from their first.
  RemoteGather(ExposedMemory& mem, const Partition& part, vid_t n, Degrees degree, const P& prog, vid_t block,
               size_t cache_bytes)
      : mem_(mem),
        part_(part),
        n_(n),
        degree_(degree),
        prog_(prog),
        block_(block),
        pacer_(part.devices()),
        cache_(cache_bytes),
        slot_(n, kNone) {}

  // Computes owner's vertices [lo, hi) (whole blocks but perhaps the
  // owner's last); commit() puts their values and published values back.
  void operator()(int owner, vid_t lo, vid_t hi, cpu::GatherSums& sums) {
    const double t0 = omp_get_wtime();
    const GatherRegion<V> r(n_, part_.end(owner) - part_.begin(owner));
    const vid_t base = part_.begin(owner);
    uint64_t header[3];
    mem_.get(owner, GatherRegion<V>::kHeader, header, sizeof(header));
    fetch_structure(owner, r, base, lo, hi);
    // Each block's sources' values, and the claim's own values.
    size_t at = 0;
    for (const auto& b : blocks_) at += b->count();
    in_.resize(at);
    at = 0;
    mem_.complete(owner);  // the header: which buffer to read
    const size_t current = r.contrib[header[0] & 1];
    for (const auto& b : blocks_) {
      if (b->values)
        mem_.get(owner, current, *b->values, in_.data() + at);
      else
        mem_.get(owner, current + size_t(b->span_lo) * sizeof(V), in_.data() + at, size_t(b->span) * sizeof(V));
      at += b->count();
    }
    val_.resize(hi - lo), next_.resize(hi - lo);
    mem_.get(owner, r.val + size_t(lo - base) * sizeof(V), val_.data(), val_.size() * sizeof(V));
    mem_.complete(owner);
    // Computed as the owner would, on local copies indexed by the block's sources.
    at = 0;
    vid_t v = lo;
    for (const auto& b : blocks_) {
      const vid_t end = std::min<vid_t>(hi, v + block_);
      const CsrChunk rows{v, end, b->offsets.data(), b->sources.data(), nullptr};
      const cpu::GatherTask<V> t{
          val_.data() - lo, in_.data() + at, next_.data() - lo, std::bit_cast<double>(header[1]), &rows,
          degree_,          nullptr};
      cpu::gather_range(prog_, t, v, end, sums);
      at += b->count();
      v = end;
    }
    done_ = {r.val + size_t(lo - base) * sizeof(V), r.contrib[1 - (header[0] & 1)] + size_t(lo) * sizeof(V)};
    pacer_.heard(owner, std::bit_cast<double>(header[2]));
    pacer_.computed(omp_get_wtime() - t0, blocks_.size());
  }

  // The last computed claim's values, into the owner's region.
  void commit(int owner) {
    mem_.put(owner, done_.val, val_.data(), val_.size() * sizeof(V));
    mem_.put(owner, done_.next, next_.data(), next_.size() * sizeof(V));
    mem_.complete(owner);  // before the caller reports the blocks done
  }

  // The fewest blocks `owner` must have left for a claim of `take` to pay,
  // and when to try it (ClaimPacer).
  uint32_t keep(int owner, uint32_t take) const { return pacer_.keep(owner, take); }
  bool try_now(int owner) const { return pacer_.try_now(owner, omp_get_wtime()); }
  void tried(int owner, bool claimed) { pacer_.tried(owner, claimed, omp_get_wtime()); }

  uint64_t cache_hits() const { return cache_.hits(); }
  uint64_t cache_misses() const { return cache_.misses(); }

 private:
  // A block's rows of in-edges: offsets from 0, sources as positions in
  // what one get of the sources' values brings: a contiguous span of the
  // owner's array where the sources lie close together (a grid's, or a
  // web graph's in id order: no list to build, and a plain get), else
  // the block's distinct sources through an indexed pattern.
  struct Block {
    std::vector<eid_t> offsets;
    std::vector<vid_t> sources;
    vid_t span_lo = 0, span = 0;                     // the span, when there is no pattern
    std::unique_ptr<ExposedMemory::Pattern> values;  // else this
    size_t count() const { return values ? values->count() : span; }
  };
  using Held = std::shared_ptr<const Block>;

  // A span at most this many times the distinct sources is read whole.
  static constexpr vid_t kSpanSlack = 2;

  // blocks_ = the structure of every block of [lo, hi), from the cache or
  // fetched: the claim's offsets in one get, then each missing block's sources.
  void fetch_structure(int owner, const GatherRegion<V>& r, vid_t base, vid_t lo, vid_t hi) {
    blocks_.clear();
    std::vector<size_t> missing;
    for (vid_t v = lo; v < hi; v += block_) {
      const Held* held = cache_.find(uint64_t(owner) << 32 | v);
      blocks_.push_back(held ? *held : nullptr);
      if (!held) missing.push_back(blocks_.size() - 1);
    }
    if (missing.empty()) return;
    offsets_.resize(size_t(hi - lo) + 1);
    mem_.get(owner, r.offsets + size_t(lo - base) * sizeof(eid_t), offsets_.data(), offsets_.size() * sizeof(eid_t));
    mem_.complete(owner);
    std::vector<std::vector<vid_t>> sources(missing.size());
    for (size_t i = 0; i < missing.size(); ++i) {
      const size_t k = missing[i];
      const eid_t first = offsets_[k * block_], last = offsets_[std::min<size_t>((k + 1) * block_, hi - lo)];
      sources[i].resize(last - first);
      mem_.get(owner, r.targets + size_t(first) * sizeof(vid_t), sources[i].data(), sources[i].size() * sizeof(vid_t));
    }
    mem_.complete(owner);
    for (size_t i = 0; i < missing.size(); ++i) {
      const size_t k = missing[i];
      const size_t rows = std::min<size_t>(block_, hi - lo - k * block_);
      auto b = std::make_shared<Block>();
      b->offsets.assign(offsets_.begin() + ptrdiff_t(k * block_), offsets_.begin() + ptrdiff_t(k * block_ + rows + 1));
      for (eid_t& o : b->offsets) o -= offsets_[k * block_];
      const size_t bytes = index_sources(*b, std::move(sources[i]));
      // A block that ends the owner's rows early is keyed like any other:
      // its rows never change.
      blocks_[k] = cache_.insert(uint64_t(owner) << 32 | (lo + vid_t(k * block_)), b, bytes);
    }
  }

  // Turns `src` into b's sources and how to read their values; returns
  // the bytes b holds.
  size_t index_sources(Block& b, std::vector<vid_t> src) {
    vid_t min = ~vid_t(0), max = 0, distinct = 0;
    for (vid_t s : src) {
      min = std::min(min, s), max = std::max(max, s);
      if (slot_[s] == kNone) slot_[s] = distinct++;
    }
    if (!src.empty() && uint64_t(max - min) + 1 <= uint64_t(kSpanSlack) * distinct) {
      for (vid_t& s : src) slot_[s] = kNone, s -= min;
      b.span_lo = min, b.span = max - min + 1;
    } else {
      std::vector<vid_t> list(distinct);
      for (vid_t& s : src) {
        const vid_t at = slot_[s];
        list[at] = s;
        s = at;
      }
      for (vid_t s : list) slot_[s] = kNone;
      b.values = mem_.pattern(list.data(), list.size(), sizeof(V));
    }
    b.sources = std::move(src);
    return b.offsets.size() * sizeof(eid_t) + b.sources.size() * sizeof(vid_t) +
           (b.values ? b.values->count() * sizeof(vid_t) : 0);  // a pattern holds its list
  }

  static constexpr vid_t kNone = ~vid_t(0);
  ExposedMemory& mem_;
  const Partition& part_;
  const vid_t n_;
  const Degrees degree_;
  const P& prog_;
  const vid_t block_;
  ClaimPacer pacer_;
  MigrationCache<Held> cache_;
  std::vector<Held> blocks_;  // held while a claim is computed, whatever the cache evicts meanwhile
  std::vector<eid_t> offsets_;
  std::vector<vid_t> slot_;  // per vertex: its position among a block's distinct sources while indexing, else kNone
  std::vector<V> in_, val_, next_;
  struct {
    size_t val = 0, next = 0;  // where the last claim's values and published values go in the owner's region
  } done_;
};

}  // namespace chatty::host
