#include "apps/job/rank_graph.h"

#include <algorithm>
#include <functional>
#include <memory>

#include "datasets/generators.h"
#include "runtime/base/parallel.h"
#include "runtime/base/status.h"
#include "runtime/graph/held_rows.h"
#include "runtime/graph/partition.h"

namespace chatty::job {
namespace {

std::vector<vid_t> cuts(const eid_t* offsets, vid_t n, const ClusterPlace& place, const std::string& what) {
  CHATTY_CHECK(uint64_t(place.devices()) <= n,
               what + " has " + std::to_string(n) + " vertices, fewer than the " + std::to_string(place.ranks) +
                   " ranks x " + std::to_string(place.local) + " devices of this run (every device needs one)");
  return partition_bounds(offsets, n, place.devices());
}

// Every vertex's offsets, from each rank's exact degrees of its own rows.
Buffer<eid_t> gathered_offsets(const Graph& rows, const std::vector<vid_t>& bounds, const ClusterPlace& place, vid_t lo,
                               vid_t hi) {
  const vid_t n = rows.num_vertices();
  Buffer<eid_t> off(size_t(n) + 1);
  eid_t* o = off.mutable_data();
  for (vid_t v = lo; v < hi; ++v) o[v] = rows.out_degree(v);
  std::vector<uint64_t> begin(size_t(place.ranks) + 1);
  for (int r = 0; r <= place.ranks; ++r) begin[size_t(r)] = bounds[size_t(r * place.local)];
  cluster_allgather(o, sizeof(eid_t), begin.data());
  parallel_exclusive_scan(o, o, n);
  return off;
}

uint64_t mix(uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// An order-free hash of what a rank loaded, alike for one graph in any
// format (a node's .cgr beside another's text file): its shape, every
// vertex's degree and, with `edges`, the edges of every row with their
// whole weights (a stale copy may differ in one weight alone), or past
// kWholeEdges edges those of 64 blocks of rows spread over the graph, so
// that the comparison stays short on a large graph.
uint64_t fingerprint(const Csr& c, bool directed, bool weighted, bool edges) {
  constexpr eid_t kWholeEdges = eid_t(1) << 24;
  constexpr vid_t kBlocks = 64, kBlockRows = 1024;
  const vid_t n = c.num_vertices();
  const bool sampled = c.num_edges() > kWholeEdges && n > kBlocks * kBlockRows;
  const vid_t stride = sampled ? n / kBlocks : 1;
  uint64_t h = mix(n) ^ mix(c.num_edges() + 1) ^ mix(uint64_t(directed) + 2 * uint64_t(weighted) + 7);
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : h)
  for (vid_t u = 0; u < n; ++u) {
    h += mix((uint64_t(u) << 32) ^ c.degree(u));
    if (edges && (!sampled || u % stride < kBlockRows))
      for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e)
        h += mix(mix(uint64_t(u) << 32 | c.targets[e]) + (weighted ? uint64_t(c.weights[e]) : 0));
  }
  return h;
}

// The ids a user types and reads: ranks that number them otherwise (one
// node's DIMACS file beside another's edge list) would take one --source
// for different vertices.
uint64_t ids_fingerprint(const LoadInfo* info) {
  if (!info) return 0;
  uint64_t h = mix(uint64_t(info->ids.scheme) + 11);
  for (uint64_t id : info->ids.original) h = mix(h ^ id);
  return h;
}

Buffer<eid_t> copy_offsets(const Csr& c) {
  Buffer<eid_t> off(c.offsets.size());
  std::copy(c.offsets.begin(), c.offsets.end(), off.mutable_data());
  return off;
}

}  // namespace

RankGraph load_rank_graph(const std::string& what, const LoadOptions& opt, const ClusterPlace& place, bool in_edges,
                          LoadInfo* info) {
  RankGraph r;
  const int first = place.first();
  if (is_graph_spec(what)) {
    const GraphSpec spec = parse_graph_spec(what);
    const std::vector<eid_t> raw = generated_degree_offsets(spec, opt.seed);
    const vid_t n = vid_t(raw.size() - 1);
    r.bounds = cuts(raw.data(), n, place, what);
    const vid_t lo = r.bounds[size_t(first)], hi = r.bounds[size_t(first + place.local)];
    Graph rows;
    agreed([&] { rows = generate_rows(spec, opt.seed, raw, lo, hi); });  // before the collective
    Buffer<eid_t> off = gathered_offsets(rows, r.bounds, place, lo, hi);
    CHATTY_CHECK(off[n] > 0, what + ": empty graph: no edges");
    r.g = graph_of_rows(std::move(off), rows.out(), lo, hi, /*directed=*/false);
    if (info) info->format = "generator", info->direction_reason = "generated";
    r.fingerprint = mix(std::hash<std::string>{}(what)) ^ fingerprint(r.g.out(), false, false, false);
    return r;
  }
  return rank_rows_of(load_graph(what, opt, info), info, place, in_edges, what);
}

RankGraph rank_rows_of(Graph whole, const LoadInfo* info, const ClusterPlace& place, bool in_edges,
                       const std::string& what) {
  RankGraph r;
  const int first = place.first();
  r.fingerprint = fingerprint(whole.out(), whole.directed(), whole.weighted(), true) ^ ids_fingerprint(info);
  r.bounds = cuts(whole.out().offsets.data(), whole.num_vertices(), place, what);
  const vid_t lo = r.bounds[size_t(first)], hi = r.bounds[size_t(first + place.local)];
  const bool mapped = !whole.out().targets.owned();  // in place: untouched rows are never read in
  std::shared_ptr<const Csr> in;
  if (in_edges && whole.directed()) in = std::make_shared<const Csr>(transpose(whole.out()));
  if (mapped) {
    r.g = std::move(whole);
    r.g.hold_rows(lo, hi);
  } else {
    r.g = graph_of_rows(copy_offsets(whole.out()), whole.out(), lo, hi, whole.directed());
  }
  if (in) r.g.set_in(csr_of_rows(copy_offsets(*in), *in, lo, hi));
  return r;
}

RankGraph load_whole_graph(const std::string& what, const LoadOptions& opt, const ClusterPlace& place, LoadInfo* info) {
  return whole_graph_of(load_graph(what, opt, info), info, place, what, is_graph_spec(what));
}

RankGraph whole_graph_of(Graph whole, const LoadInfo* info, const ClusterPlace& place, const std::string& what,
                         bool generated) {
  RankGraph r;
  r.g = std::move(whole);
  r.fingerprint = (generated ? mix(std::hash<std::string>{}(what)) : 0) ^
                  fingerprint(r.g.out(), r.g.directed(), r.g.weighted(), !generated) ^ ids_fingerprint(info);
  r.bounds = cuts(r.g.out().offsets.data(), r.g.num_vertices(), place, what);
  return r;
}

}  // namespace chatty::job
