// The vertex-program API (the ChattyGraph paper, section 3: InitVertex / ComputeScatter /
// ComputeReduce / UpdateStatus). An app is a small struct of CHATTY_HD
// functions; the engine owns loops, frontiers, load balance, compaction and
// (with several devices) exchange, so the same struct runs on every backend.
//
// Every program has:
//   using Value = ...;                          // per-vertex state
//   static constexpr ProgramKind kKind;
//   Value init(vid_t v) const;                  // InitVertex
//   bool active_at_start(vid_t v) const;
//
// kOperators programs (TC, BC) are not vertex programs: they compose the
// operators over the whole graph and declare what
// runtime/engine/operator_program.h lists.
//
// kTraversal programs (BFS, SSSP, WCC) also have
//   Value scatter(Value src, vid_t u, vid_t v, weight_t w) const;
//                          // ComputeScatter: what edge u->v offers v
//   static Value reduce(Value a, Value b);
//                          // ComputeReduce: fold two offers; associative,
//                          // commutative, idempotent (so atomic CAS loops
//                          // and repeated delivery are safe)
//   static bool changed(Value now, Value before);   // UpdateStatus
//   static constexpr bool kPullable;  // may run bottom-up: a vertex is done
//                                     // after its first update (BFS)
//   static bool unvisited(Value v);   // pull steps only visit these
//   static constexpr bool kUniformFrontier;  // level synchronous: all
//                                     // frontier vertices hold one value
//   static constexpr bool kNeedsWeights;
//   static constexpr bool kOrdered;   // offers grow along paths: the engine
//                                     // may process by priority buckets
//   uint64_t priority(Value v) const; // bucket key for ordered programs
//   static constexpr bool kConnectivity;  // reduce is min over labels on an
//                                         // undirected view: the engine may
//                                         // link with union-find instead
//
// kGather programs (PageRank, k-core, Katz, eigenvector) run Jacobi
// supersteps: each vertex publishes one value to its out-neighbours, then
// computes its next value from what its in-neighbours published the step
// before, and from one global sum over every vertex (the "sink"):
//   Value publish(Value v, eid_t out_degree) const;
//   double sink(Value v, eid_t out_degree) const;  // a vertex's share of the
//                          // global sum (PageRank: its value if it has no
//                          // out-edges; eigenvector: its value squared)
//   template <typename In>
//   Value gather(Value own, const In& in, double sink_mass) const;
//                          // in.size(), in[i]: the in-neighbours' published
//                          // values; sink_mass: the sink summed over every
//                          // vertex's value of the last superstep
//   static constexpr bool kSums;  // gather is apply(sum of in[i], sink):
//                                 // a backend may split the sum over lanes
//   static constexpr bool kMonotone;  // any order of updates reaches the same
//                                     // fixed point: a backend may update in
//                                     // place (Gauss-Seidel) instead of Jacobi
//   Value apply(double sum, double sink_mass) const;  // kSums programs only
//   bool converged(double change, double sink_mass) const;
//                          // change: sum over all vertices of |next - value|
//                          // in one superstep; sink_mass: of the next values
//   int max_iters;                        // stop after this many supersteps
#pragma once

#include "runtime/base/types.h"

namespace chatty {

enum class ProgramKind { kTraversal, kGather, kOperators };

// The published values of one vertex's in-neighbours, as a gather sees them.
template <typename V>
struct InValues {
  const V* published;
  const vid_t* sources;
  eid_t count;
  CHATTY_HD eid_t size() const { return count; }
  CHATTY_HD V operator[](eid_t i) const { return published[sources[i]]; }
};

// The same values, from rows whose short lengths vary from vertex to
// vertex (a road network's): summed without a branch on a short row's
// length where the host can (runtime/base/in_sum.h), with the same result.
template <typename V>
struct InValuesOfVaryingRows : InValues<V> {};

}  // namespace chatty
