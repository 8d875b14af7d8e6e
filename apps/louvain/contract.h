// Louvain's coarsening: every community of a level becomes one vertex of
// the next level's graph, its rows the summed weights to the other
// communities, the weight inside it in `self`, its degree the sum
// of its members'. Collective steps of the team; integer sums, so the
// graph is the same whatever order the threads add in.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "apps/louvain/level.h"
#include "runtime/host/operators.h"

namespace chatty::louvain {

// A contracted level's graph.
struct Contracted {
  std::vector<eid_t> off;
  std::vector<vid_t> tgt;
  std::vector<uint64_t> w;
  Masses mass;
  Rows<uint64_t> rows() const { return {vid_t(off.size() - 1), off.data(), tgt.data(), w.data()}; }
};

// Scratch of a contraction, kept between levels.
struct Grouping {
  std::vector<vid_t> id;       // per community of the level: its vertex of the next level
  std::vector<vid_t> next_of;  // per vertex of the level: its vertex of the next level
  std::vector<eid_t> start;    // per next vertex: where its members begin in `members`
  std::vector<eid_t> cursor;   // filling `members`
  std::vector<vid_t> members;  // the level's vertices, grouped by next vertex
  // The rows each thread of a contraction made, and where each row is.
  struct Made {
    std::vector<vid_t> tgt;
    std::vector<uint64_t> w;
  };
  std::vector<Made> made;
  std::vector<uint32_t> made_by;
  std::vector<size_t> made_at;
};

// Numbers the communities that have members 0, 1, ... in the order of
// their numbers, and groups the level's vertices by them. Returns the
// number of communities.
inline vid_t group(host::TeamThread& t, const std::vector<vid_t>& comm, Grouping& gr) {
  const size_t n = comm.size();
  t.single([&] { gr.id.assign(n, 0), gr.next_of.resize(n), gr.members.resize(n); });
  host::compute(t, 0, n, [&](size_t v) { std::atomic_ref<vid_t>(gr.id[comm[v]]).store(1, std::memory_order_relaxed); });
  t.single([&] {
    vid_t next = 0;
    for (vid_t& x : gr.id) x = x ? next++ : kInfinity;
    gr.start.assign(size_t(next) + 1, 0);
  });
  host::compute(t, 0, n, [&](size_t v) {
    gr.next_of[v] = gr.id[comm[v]];
    std::atomic_ref<eid_t>(gr.start[gr.next_of[v] + 1]).fetch_add(1, std::memory_order_relaxed);
  });
  t.single([&] {
    for (size_t c = 1; c < gr.start.size(); ++c) gr.start[c] += gr.start[c - 1];
    gr.cursor.assign(gr.start.begin(), gr.start.end() - 1);
  });
  host::compute(t, 0, n, [&](size_t v) {
    const eid_t at = std::atomic_ref<eid_t>(gr.cursor[gr.next_of[v]]).fetch_add(1, std::memory_order_relaxed);
    gr.members[at] = vid_t(v);
  });
  return vid_t(gr.start.size() - 1);
}

// The next level's graph of the level (r, mass) partitioned by comm,
// whose communities `gr` grouped.
template <typename W>
void contract(host::TeamThread& t, const Rows<W>& r, const Masses& mass, Grouping& gr, Contracted& out) {
  const vid_t count = vid_t(gr.start.size() - 1);
  t.single([&] {
    out.off.assign(size_t(count) + 1, 0);
    out.mass.k.assign(count, 0);
    out.mass.self.assign(count, 0);
  });
  // A community's tally of weights to the others; inside2 counts each edge
  // within it twice, once from either end. The next vertices of the
  // targets, and their tallies, are fetched ahead: each edge is two
  // dependent reads at random otherwise (a third of Leiden's time on
  // kron:20 was here).
  const auto tally_of = [&](vid_t c, Tally& tally) {
    tally.size_for(count);
    uint64_t inside2 = 0, self = 0;
    int64_t k = 0;
    for (eid_t i = gr.start[c]; i < gr.start[c + 1]; ++i) {
      const vid_t v = gr.members[i];
      self += mass.self[v], k += mass.k[v];
      const eid_t hi = r.off[v + 1];
      for (eid_t e = r.off[v]; e < hi; ++e) {
        if (e + 16 < hi) __builtin_prefetch(&gr.next_of[r.tgt[e + 16]]);
        if (e + 8 < hi) __builtin_prefetch(&tally.to[gr.next_of[r.tgt[e + 8]]]);
        const vid_t u = r.tgt[e];
        if (u == v) continue;  // a self-loop of level 0, in mass.self
        if (const vid_t d = gr.next_of[u]; d == c)
          inside2 += r.weight(e);
        else
          tally.add(d, r.weight(e));
      }
    }
    out.mass.self[c] = self + inside2 / 2, out.mass.k[c] = k;
    return gr.start[c + 1] - gr.start[c];
  };
  // One pass over the level's edges: each thread keeps the rows it made,
  // and they are copied into place once the offsets are known.
  t.single([&] {
    gr.made.resize(size_t(t.threads()));
    gr.made_by.resize(count), gr.made_at.resize(count);
  });
  Grouping::Made& mine = gr.made[size_t(t.thread())];
  mine.tgt.clear(), mine.w.clear();
  host::compute(t, 0, count, [&](int, size_t c) -> uint64_t {
    thread_local Tally tally;
    const uint64_t work = tally_of(vid_t(c), tally);
    out.off[c + 1] = tally.touched.size();
    gr.made_by[c] = uint32_t(t.thread()), gr.made_at[c] = mine.tgt.size();
    for (const vid_t d : tally.touched) mine.tgt.push_back(d), mine.w.push_back(uint64_t(tally.to[d]));
    tally.clear();
    return work;
  });
  t.single([&] {
    for (size_t c = 1; c < out.off.size(); ++c) out.off[c] += out.off[c - 1];
    out.tgt.resize(out.off.back()), out.w.resize(out.off.back());
  });
  host::compute(t, 0, count, [&](int, size_t c) -> uint64_t {
    const Grouping::Made& from = gr.made[gr.made_by[c]];
    const eid_t len = out.off[c + 1] - out.off[c];
    std::copy_n(from.tgt.begin() + ptrdiff_t(gr.made_at[c]), len, out.tgt.begin() + ptrdiff_t(out.off[c]));
    std::copy_n(from.w.begin() + ptrdiff_t(gr.made_at[c]), len, out.w.begin() + ptrdiff_t(out.off[c]));
    return 1 + len;
  });
}

}  // namespace chatty::louvain
