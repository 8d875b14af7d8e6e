// The ChattyGraph superstep over P devices (seed 001 algorithm 1). One
// thread of an outer OpenMP team drives each device; each superstep it
//   merges recv[parity] into its replica (owned vertices that change become
//   active) -> computes over its owned active vertices -> compacts changed
//   boundary vertices into its send buffer -> publishes status and meets the
//   others -> exchanges through the policy's transport -> meets again,
// until no device has work (PageRank: until the global L1 change < tolerance).
// Every device keeps the full value array; the exchange broadcasts each
// device's updates to all peers, so replicas of boundary vertices stay
// current for pull steps and a push offer reaches the vertex's owner.
#pragma once

#include <omp.h>

#include <memory>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "runtime/device_context.h"
#include "runtime/engine.h"
#include "runtime/hash.h"
#include "runtime/multi_stats.h"
#include "runtime/partition.h"
#include "runtime/superstep_decisions.h"

namespace chatty {
// Binds the calling thread (and the threads it starts) to NUMA node
// d % nodes and prefers that node's memory; no-op without libnuma support.
void bind_to_numa_node(int d);

namespace multi {

template <typename P>
using Ctx = DeviceContext<typename P::Value>;

// The device's driving thread alone touches its queue and marks here.
inline void push_unique(Queue& q, Bitmap& in_q, vid_t v) {
  if (in_q.test_and_set(v)) q.ids[q.count++] = v;
}

inline void clear_marks(Queue& q, Bitmap& b) {
  for (size_t i = 0; i < q.count; ++i) b.reset(q.ids[i]);
  q.count = 0;
}

// Frontier programs (BFS with the direction switch made on global counts,
// and plain push programs such as WCC by label propagation).
template <typename P>
void traverse(Ctx<P>& c, const Graph& g, const P& prog, const EngineOptions& opt) {
  using V = typename P::Value;
  const Csr& out = g.out();
  const vid_t n = g.num_vertices();
  const bool can_pull = P::kPullable && opt.direction != Direction::kPush;
  Queue active(n), changed(n);
  Bitmap claimed(n), front(can_pull ? n : 0), next(can_pull ? n : 0);
  V level{};
  bool have_level = false;
  uint64_t scout = 0;
  for (vid_t v : detail::start_set(prog, n)) {
    if (c.owns(v)) push_unique(active, c.marks, v);
    if (can_pull) front.set(v);
    if (!have_level) level = prog.init(v), have_level = true;
    scout += out.degree(v);
  }
  DirectionSwitch direction(out.num_edges(), scout, n, opt.alpha, opt.beta);
  bool pull = can_pull && opt.direction == Direction::kPull;
  for (int k = 0;; ++k) {
    const int parity = k & 1;
    DeviceStatus mine;
    c.merge(
        parity, [](V a, V b) { return P::reduce(a, b); },
        [&](vid_t v) {
          if (c.owns(v)) push_unique(active, c.marks, v), ++mine.updated;
          if (can_pull) front.set(v);
        });
    c.begin(kCompute);
    SuperstepStats st;
    c.pull_ = pull;
    if (pull) {
      // Bottom-up: the owned vertices that joined form the next frontier
      // (remote ones arrive by merge). The active queue is only needed
      // again when the run goes back to push, so it is rebuilt then.
      cpu::pull_step(g.in(), prog, c.values.data(), front, next, level, st, c.lo, c.hi);
      clear_marks(active, c.marks);
      changed.count = next.collect(c.lo, c.hi, changed.ids.mutable_data());
      front.swap(next);
      mine.updated += changed.count;
      mine.active = changed.count;
    } else {
      cpu::push_step(out, prog, c.values.data(), active, changed, claimed, st);
      clear_marks(active, c.marks);
      if (P::kUniformFrontier) level = prog.scatter(level, 0, 0, 1);
      if (can_pull) front.clear();
      for (size_t i = 0; i < changed.count; ++i) {
        const vid_t v = changed.ids[i];
        if (can_pull) front.set(v);
        if (!c.owns(v)) continue;
        push_unique(active, c.marks, v);
        ++mine.updated;
        mine.scout += out.degree(v);
      }
      mine.active = active.count;
    }
    mine.edges = st.edges;
    c.end();
    c.compact(changed.ids.data(), changed.count);
    const auto all = c.sync(parity, mine);
    if (total(all, &DeviceStatus::active) == 0 && total(all, &DeviceStatus::sent) == 0) break;
    // Direction for the next superstep, from global counts (same on every device).
    if (can_pull && opt.direction == Direction::kAuto) {
      const bool was_pull = pull;
      pull = direction.next(pull, total(all, &DeviceStatus::updated), total(all, &DeviceStatus::scout));
      if (was_pull && !pull)
        for (vid_t v = c.lo; v < c.hi; ++v)  // the owned frontier, as the push step's queue
          if (front.get(v)) push_unique(active, c.marks, v);
    }
  }
}

// Ordered programs (SSSP): distributed delta-stepping. Every device relaxes
// its share of the globally lowest non-empty bucket each superstep.
template <typename P>
void ordered(Ctx<P>& c, const Graph& g, const P& prog, uint64_t delta) {
  using V = typename P::Value;
  constexpr uint64_t kNone = ~uint64_t(0);
  const Csr& out = g.out();
  const vid_t n = g.num_vertices();
  std::vector<std::vector<vid_t>> bins;
  auto bin_of = [&](vid_t v) { return size_t(prog.priority(c.values[v]) / delta); };
  auto put = [&](vid_t v) {
    const size_t b = bin_of(v);
    if (b >= bins.size()) bins.resize(b + 1);
    bins[b].push_back(v);
  };
  uint64_t bucket = kNone;
  for (vid_t v : detail::start_set(prog, n)) {
    bucket = std::min<uint64_t>(bucket, bin_of(v));
    if (c.owns(v)) put(v);
  }
  Queue frontier(n), changed(n);
  Bitmap claimed(n);
  for (int k = 0; bucket != kNone; ++k) {
    const int parity = k & 1;
    DeviceStatus mine;
    c.merge(
        parity, [](V a, V b) { return P::reduce(a, b); },
        [&](vid_t v) {
          if (c.owns(v)) put(v), ++mine.updated;
        });
    c.begin(kCompute);
    frontier.count = 0;
    if (bucket < bins.size()) {
      for (vid_t v : bins[bucket])  // drop stale and repeated entries
        if (bin_of(v) == bucket && c.marks.test_and_set(v)) frontier.ids[frontier.count++] = v;
      bins[bucket].clear();
      for (size_t i = 0; i < frontier.count; ++i) c.marks.reset(frontier.ids[i]);
    }
    SuperstepStats st;
    cpu::push_step(out, prog, c.values.data(), frontier, changed, claimed, st);
    mine.edges = st.edges;
    for (size_t i = 0; i < changed.count; ++i) {
      const vid_t v = changed.ids[i];
      mine.bucket = std::min<uint64_t>(mine.bucket, bin_of(v));  // receivers will bin remote ones
      if (c.owns(v)) put(v), ++mine.updated;
    }
    for (size_t b = bucket; b < bins.size(); ++b)
      if (!bins[b].empty()) {
        mine.bucket = std::min<uint64_t>(mine.bucket, b);
        break;
      }
    c.end();
    c.compact(changed.ids.data(), changed.count);
    const auto all = c.sync(parity, mine);
    bucket = kNone;
    // Every sent record is also counted in its sender's bucket, so kNone
    // means no device has work and nothing is in flight.
    for (auto& s : all) bucket = std::min(bucket, s.bucket);
  }
}

// Connectivity (WCC), Afforest across devices: every device keeps a
// union-find forest over its replica of the labels. What travels is the
// unions themselves: a root a device re-parents while linking its owned
// vertices' edges goes out as (root, the root of its tree now), and a receiver
// links the pair into its own forest. Linking always hangs the larger root
// under the smaller, so once every device has applied every union, every
// vertex a device holds (owned, boundary, or a root a peer sent) has as its
// root the minimum of its component over the edges linked so far, on every
// device alike; applying a received union creates nothing new to send: one
// exchange per linking stage suffices.
//   k0: link a two-neighbour sample, send its unions
//   k1: apply the peers' unions, vote for the giant component from samples
//       of owned roots (status data); all devices elect the same one
//   k2: link the other edges of vertices outside the giant, send the unions
//   k3: apply them; the owned labels are then final after a compression.
// Only unions of vertices that peers can hold in a tree need to travel: the
// boundary vertices and every root ever sent ("shared"; the exchange is a
// broadcast, so every device has the same set). An inner vertex that was
// never sent is in no peer's forest, so re-parenting it tells peers nothing,
// and the shared vertices of its tree are sent with their new root.
namespace detail {
// Runs link(u, push) over the owned vertices on the device's threads, where
// push(root) records a root the link re-parented and link returns the edges
// it looked at; appends the roots to `unions`, returns the edges.
template <typename Link>
uint64_t collect_unions(vid_t lo, vid_t hi, std::vector<vid_t>& unions, Link link) {
  uint64_t edges = 0;
  if (omp_get_max_threads() == 1) {  // a device of one core: no team to start, no lists to join
    auto push = [&unions](vid_t root) {
      if (root != cpu::kNoRoot) unions.push_back(root);
    };
    for (vid_t u = lo; u < hi; ++u) edges += link(u, push);
    return edges;
  }
#pragma omp parallel reduction(+ : edges)
  {
    std::vector<vid_t> mine;
    mine.reserve((hi - lo) / vid_t(omp_get_num_threads()) / 2);
    auto push = [&mine](vid_t root) {
      if (root != cpu::kNoRoot) mine.push_back(root);
    };
#pragma omp for schedule(dynamic, 1024) nowait
    for (vid_t u = lo; u < hi; ++u) edges += link(u, push);
#pragma omp critical(chatty_wcc_unions)
    unions.insert(unions.end(), mine.begin(), mine.end());
  }
  return edges;
}

// A team of one links with plain loads and stores (no CAS fences).
template <bool kAlone>
vid_t unite(vid_t u, vid_t v, vid_t* label) {
  return kAlone ? cpu::uf_union_alone(u, v, label) : cpu::uf_union(u, v, label);
}

// Sample round r: links every owned vertex to its r-th neighbour.
template <bool kAlone>
uint64_t link_sample(const Csr& out, vid_t lo, vid_t hi, eid_t r, vid_t* label, std::vector<vid_t>& unions) {
  constexpr vid_t kAhead = 16;
  const eid_t* off = out.offsets.data();
  const vid_t* tgt = out.targets.data();
  return collect_unions(lo, hi, unions, [=](vid_t u, auto push) -> uint64_t {
    // A union is a chain of dependent cache misses: the neighbour's id
    // (one line per vertex), its label, the labels up its tree. The id is
    // fetched four strides ahead and the label one stride ahead, so that
    // they overlap this union's.
    if (u + 4 * kAhead < hi) __builtin_prefetch(tgt + off[u + 4 * kAhead]);  // the line of its r-th, mostly
    if (u + kAhead < hi) {
      const eid_t e = off[u + kAhead] + r;
      if (e < off[u + kAhead + 1]) __builtin_prefetch(label + tgt[e]);
    }
    const eid_t e = off[u] + r;
    if (e >= off[u + 1]) return 0;
    push(unite<kAlone>(u, tgt[e], label));
    return 1;
  });
}

// The edges after the sample of owned vertices outside the giant. On an
// undirected graph the giant's inner edges cannot change anything, and
// every edge with one end outside it is linked from that end.
template <bool kAlone>
uint64_t link_rest(const Csr& out, vid_t lo, vid_t hi, eid_t skip, vid_t giant, vid_t* label,
                   std::vector<vid_t>& unions) {
  const eid_t* off = out.offsets.data();
  const vid_t* tgt = out.targets.data();
  return collect_unions(lo, hi, unions, [=](vid_t u, auto push) -> uint64_t {
    if (std::atomic_ref<vid_t>(label[u]).load(std::memory_order_relaxed) == giant) return 0;
    const eid_t first = off[u] + skip, last = off[u + 1];
    for (eid_t e = first; e < last; ++e) push(unite<kAlone>(u, tgt[e], label));
    return last > first ? last - first : 0;
  });
}
}  // namespace detail

template <typename V>
void connectivity(DeviceContext<V>& c, const Graph& g) {
  static_assert(std::is_same_v<V, vid_t>, "labels are vertex ids");
  constexpr eid_t kSample = 2;
  const bool alone = omp_get_max_threads() == 1;  // the device's team links without CAS
  const vid_t n = g.num_vertices();
  const Csr& out = g.out();
  vid_t* label = c.values.data();
  std::vector<vid_t> unions;
  unions.reserve(2 * size_t(c.hi - c.lo));  // the sample re-parents at most a root per owned vertex per round
  Bitmap shared(n);
  const std::vector<vid_t>& boundary = c.partition().boundary_list;
  for (vid_t v : boundary) shared.set(v);
  // Between sample rounds: points the owned vertices and the boundary
  // vertices (the remote ones the device holds among them) at their roots,
  // so the next round's links and the compaction's finds are short; the
  // other remote vertices it holds are roots peers sent, flattened as they
  // are applied and sent. In ascending ids, as every parent is smaller than
  // its child, so a find mostly meets a parent compressed already.
  const auto [own_first, own_last] = c.partition().boundary_of(c.d);
  auto compress = [&, own_first = own_first, own_last = own_last] {
    cpu::uf_compress_list(boundary.data(), size_t(own_first - boundary.data()), label);
    cpu::uf_compress(c.lo, c.hi, label);
    cpu::uf_compress_list(own_last, size_t(boundary.data() + boundary.size() - own_last), label);
  };
  vid_t giant = n;  // none: on a directed graph no edge may be skipped
  for (int k = 0;; ++k) {
    const int parity = k & 1;
    c.for_each_received(
        parity,
        [&](vid_t v, vid_t root) {
          shared.set(root);
          cpu::uf_link_alone(v, root, label);
        },
        [&](vid_t v, vid_t root) {
          __builtin_prefetch(label + v);
          __builtin_prefetch(label + root);
        });
    c.begin(kCompute);
    DeviceStatus mine;
    unions.clear();
    if (k == 0) {
      // One neighbour per vertex per round, with paths compressed in between
      // so the next round's finds stay short.
      for (eid_t r = 0; r < kSample; ++r) {
        mine.edges += alone ? detail::link_sample<true>(out, c.lo, c.hi, r, label, unions)
                            : detail::link_sample<false>(out, c.lo, c.hi, r, label, unions);
        compress();
      }
    } else if (k == 1) {
      // The vote and the rest stage read owned labels only; a remote
      // vertex's path is flattened where a link or the compaction meets it.
      cpu::uf_compress(c.lo, c.hi, label);
      if (!g.directed() && c.hi > c.lo) {
        std::vector<vid_t> roots(1024);
        for (uint64_t i = 0; i < roots.size(); ++i) roots[i] = label[c.lo + vid_t(hash2(0xAF, i) % (c.hi - c.lo))];
        vote_for_giant(roots, mine);
      }
    } else if (k == 2) {
      mine.edges += alone ? detail::link_rest<true>(out, c.lo, c.hi, kSample, giant, label, unions)
                          : detail::link_rest<false>(out, c.lo, c.hi, kSample, giant, label, unions);
    }
    // The sample's compression already pointed every root it re-parented
    // (all owned or boundary) at its root; the rest's are flattened here,
    // prefetching, so the compaction's finds are one step each.
    if (k == 2) cpu::uf_compress_list(unions.data(), unions.size(), label);
    c.end();
    c.compact_where(
        unions.data(), unions.size(),
        [&](vid_t v) {
          const vid_t root = cpu::uf_flatten(v, label);  // chains of received roots stay short
          shared.set(root);                              // the compaction runs on this thread alone
          return root;
        },
        [&](vid_t v) { return shared.get(v); }, [&](vid_t v) { __builtin_prefetch(label + v); });
    const auto all = c.sync(parity, mine);
    if (k == 1) giant = elect_giant(all, giant);
    if (k == 3) break;
  }
  // Final labels of owned vertices; every vertex whose label is not its own id changed.
  cpu::uf_compress(c.lo, c.hi, label);
  uint64_t changed = 0;
#pragma omp parallel for schedule(static) reduction(+ : changed)
  for (vid_t v = c.lo; v < c.hi; ++v) changed += label[v] != v;
  c.add_updated(changed);
}

// Gather programs (PageRank): Jacobi supersteps over owned vertices; the
// contributions of owned boundary vertices are sent every superstep;
// dangling mass and the L1 change are summed over devices as status data.
template <typename P>
void gather(Ctx<P>& c, const Graph& g, const P& prog, const EngineOptions& opt) {
  using V = typename P::Value;
  const Csr& out = g.out();
  cpu::GatherState state = cpu::gather_init(out, prog, c.values.data());  // all vertices: global dangling
  const auto [send_first, send_last] = c.partition().boundary_of(c.d);    // owned boundary vertices
  for (int k = 0; k < opt.max_iters; ++k) {
    const int parity = k & 1;
    // Peers read only contributions, so owners send those: a received
    // record is two stores, no division and no rank replica to keep.
    c.for_each_received(
        parity, [&](vid_t v, V contribution) { state.contrib[v] = state.next_contrib[v] = float(contribution); });
    c.begin(kCompute);
    SuperstepStats st;
    DeviceStatus mine;
    mine.l1 = cpu::gather_step(out, g.in(), prog, c.values.data(), state, st, c.lo, c.hi);
    mine.edges = st.edges;
    mine.dangling = state.dangling;
    mine.updated = c.hi - c.lo;
    c.end();
    c.compact(send_first, size_t(send_last - send_first), [&](vid_t v) { return V(state.contrib[v]); });
    const auto all = c.sync(parity, mine);
    double l1 = 0, dangling = 0;
    for (auto& s : all) l1 += s.l1, dangling += s.dangling;
    state.dangling = dangling;
    if (l1 < opt.tolerance) break;
  }
}

}  // namespace multi

// Runs `prog` on P = part.devices() host devices; the machine's threads are
// split evenly between them. Results equal run_program's (exactly for
// BFS/SSSP/WCC, within tolerance for PageRank).
template <typename P>
EngineResult<typename P::Value> run_program_multi(const Graph& g, const P& prog, const Partition& part,
                                                  const EngineOptions& opt, TransportPolicy& policy,
                                                  MultiStats& stats) {
  using V = typename P::Value;
  if constexpr (P::kKind == ProgramKind::kTraversal)
    if constexpr (P::kNeedsWeights) CHATTY_CHECK(g.weighted(), "this app needs edge weights");
  const int D = part.devices();
  const vid_t n = g.num_vertices();
  if constexpr (P::kKind == ProgramKind::kGather) {
    (void)g.in();
  } else if constexpr (P::kPullable) {
    (void)g.in();
  }
  Mailboxes mb(D, sizeof(Update<V>));
  StatusBoard board(D);
  stats.devices = D;
  stats.steps.clear();
  stats.device_seconds.assign(size_t(D), {});
  stats.transport = policy.describe();
  stats.structure_bytes = g.num_edges() * sizeof(vid_t) + (uint64_t(n) + uint64_t(D)) * sizeof(eid_t);
  const int per_device = std::max(1, omp_get_max_threads() / D);
  const int saved_levels = omp_get_max_active_levels();
  omp_set_max_active_levels(2);
  EngineResult<V> r;
  r.values.resize(n);
  uint64_t delta = 1;
  if constexpr (P::kKind == ProgramKind::kTraversal) delta = opt.delta ? opt.delta : detail::auto_delta(g);
#pragma omp parallel num_threads(D)
  {
    const int d = omp_get_thread_num();
    omp_set_num_threads(per_device);
    if (opt.numa) bind_to_numa_node(d);  // before any of the device's memory is touched
    DeviceContext<V> c(d, part, mb, board, policy, stats, n);
#pragma omp parallel for schedule(static)
    for (vid_t v = 0; v < n; ++v) c.values[v] = prog.init(v);
    if constexpr (P::kKind == ProgramKind::kGather) {
      multi::gather(c, g, prog, opt);
    } else {
      if (P::kConnectivity && opt.union_find)
        multi::connectivity(c, g);
      else if (P::kOrdered)
        multi::ordered(c, g, prog, delta);
      else
        multi::traverse(c, g, prog, opt);
    }
    std::copy(c.values.begin() + c.lo, c.values.begin() + c.hi, r.values.begin() + c.lo);
  }
  omp_set_max_active_levels(saved_levels);
  return r;
}

}  // namespace chatty
