#include "datasets/generators.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

#include "datasets/progress.h"
#include "runtime/base/hash.h"
#include "runtime/base/memory.h"
#include "runtime/base/parallel.h"
#include "runtime/base/status.h"
#include "runtime/graph/graph_builder.h"

namespace chatty {
namespace {

constexpr uint32_t kMaxScale = 31;

bool parse_u64(const std::string& s, uint64_t& out) {
  if (s.empty() || s.size() > 12) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  out = std::strtoull(s.c_str(), nullptr, 10);
  return true;
}

// A bijection on [0, 2^scale) that scatters Kronecker hubs over the id range,
// as Graph500 permutes its vertex labels.
uint64_t permute(uint64_t x, uint32_t scale, uint64_t key) {
  const uint64_t mask = (scale >= 64) ? ~0ull : ((1ull << scale) - 1);
  const uint32_t shift = scale / 2 + 1;
  for (int round = 0; round < 3; ++round) {
    x = (x * ((splitmix64(key + round) | 1))) & mask;
    x ^= x >> shift;
    x = (x + (splitmix64(key ^ round) & mask)) & mask;
  }
  return x;
}

void kron_edge(uint64_t i, uint32_t scale, uint64_t seed, vid_t& u, vid_t& v) {
  constexpr uint64_t kA = uint64_t(0.57 * 4294967296.0), kAB = uint64_t(0.76 * 4294967296.0),
                     kABC = uint64_t(0.95 * 4294967296.0);
  const uint64_t base = hash2(seed, i);
  uint64_t su = 0, sv = 0, r = 0;
  for (uint32_t l = 0; l < scale; ++l) {
    if ((l & 1) == 0) r = splitmix64(base + l);
    uint64_t p = (l & 1) ? (r >> 32) : (r & 0xFFFFFFFFull);
    uint64_t bu = p >= kAB, bv = (p >= kA && p < kAB) || p >= kABC;
    su = (su << 1) | bu;
    sv = (sv << 1) | bv;
  }
  const uint64_t key = splitmix64(seed ^ 0xC0FFEEull);
  u = vid_t(permute(su, scale, key));
  v = vid_t(permute(sv, scale, key));
}

}  // namespace

bool is_graph_spec(const std::string& s) {
  return s.rfind("kron:", 0) == 0 || s.rfind("urand:", 0) == 0 || s.rfind("grid:", 0) == 0 || s.rfind("road:", 0) == 0;
}

GraphSpec parse_graph_spec(const std::string& s) {
  GraphSpec g{};
  const size_t colon = s.find(':');
  const std::string kind = s.substr(0, colon), rest = s.substr(colon + 1);
  if (kind == "grid" || kind == "road") {
    g.kind = kind == "grid" ? GraphSpec::Kind::kGrid : GraphSpec::Kind::kRoad;
    size_t x = rest.find('x');
    CHATTY_CHECK(x != std::string::npos && parse_u64(rest.substr(0, x), g.width) &&
                     parse_u64(rest.substr(x + 1), g.height) && g.width > 0 && g.height > 0,
                 "bad graph spec '" + s + "': expected " + kind + ":WxH with W, H >= 1");
    CHATTY_CHECK(g.width * g.height < kMaxVertices, "bad graph spec '" + s + "': more than 2^32-1 vertices");
    return g;
  }
  CHATTY_CHECK(kind == "kron" || kind == "urand",
               "bad graph spec '" + s + "': expected kron:SCALE[:EF], urand:SCALE[:EF], grid:WxH or road:WxH");
  g.kind = kind == "kron" ? GraphSpec::Kind::kKron : GraphSpec::Kind::kUrand;
  const size_t c2 = rest.find(':');
  uint64_t scale = 0, ef = 16;
  CHATTY_CHECK(parse_u64(rest.substr(0, c2), scale) && scale >= 1 && scale <= kMaxScale,
               "bad scale in graph spec '" + s + "': expected an integer 1.." + std::to_string(kMaxScale));
  if (c2 != std::string::npos)
    CHATTY_CHECK(parse_u64(rest.substr(c2 + 1), ef) && ef >= 1 && ef <= 1024,
                 "bad edge factor in graph spec '" + s + "': expected an integer 1..1024");
  g.scale = uint32_t(scale);
  g.edge_factor = uint32_t(ef);
  return g;
}

namespace {

// The spec's vertices and generated edges (before symmetrizing and
// deduplication); throws chatty::Error for sizes it cannot hold.
std::pair<vid_t, uint64_t> spec_size(const GraphSpec& spec) {
  if (spec.kind == GraphSpec::Kind::kGrid) {
    const uint64_t w = spec.width, h = spec.height;
    const uint64_t m = (w - 1) * h + w * (h - 1);
    CHATTY_CHECK(m > 0, "graph spec grid:" + std::to_string(w) + "x" + std::to_string(h) + ": empty graph: no edges");
    return {vid_t(w * h), m};
  }
  if (spec.kind == GraphSpec::Kind::kRoad) {
    const uint64_t w = spec.width, h = spec.height;
    CHATTY_CHECK(w * h > 1,
                 "graph spec road:" + std::to_string(w) + "x" + std::to_string(h) + ": empty graph: no edges");
    return {vid_t(w * h), 3 * w * h};  // candidates: right, down, diagonal of every point
  }
  const uint64_t nv = 1ull << spec.scale;
  CHATTY_CHECK(nv < kMaxVertices, "graph spec scale too large for 32-bit vertex ids");
  return {vid_t(nv), nv * spec.edge_factor};
}

// road: point v's place, its lattice position jittered by up to 0.3 each way.
double road_coordinate(uint64_t seed, vid_t v, uint64_t w, int axis) {
  const double lattice = double(axis == 0 ? v % w : v / w);
  const double unit = double(hash2(seed ^ 0x5EEDull, 2 * uint64_t(v) + uint64_t(axis)) >> 11) * 0x1p-53;
  return lattice + 0.6 * (unit - 0.5);
}

// road: an edge's weight, its length in hundredths of a lattice step.
weight_t road_weight(const GraphSpec& spec, uint64_t seed, vid_t u, vid_t v) {
  const double dx = road_coordinate(seed, u, spec.width, 0) - road_coordinate(seed, v, spec.width, 0);
  const double dy = road_coordinate(seed, u, spec.width, 1) - road_coordinate(seed, v, spec.width, 1);
  return weight_t(std::max(1.0, std::round(100.0 * std::sqrt(dx * dx + dy * dy))));
}

// road: candidate i of point i / 3 (right, down, diagonal), or u == v where
// it is dropped or leaves the lattice.
void road_edge(uint64_t i, const GraphSpec& spec, uint64_t seed, vid_t& u, vid_t& v) {
  const uint64_t w = spec.width, h = spec.height, point = i / 3, k = i % 3;
  const uint64_t x = point % w, y = point / w;
  const bool right = x + 1 < w, down = y + 1 < h;
  // Lattice edges kept with probability 0.7 (above square-lattice
  // percolation's 0.5: one giant component), diagonals with 0.08.
  const uint64_t keep = k < 2 ? 700 : 80;
  u = v = vid_t(point);
  if (hash2(seed, i) % 1000 >= keep) return;
  if (k == 0 && right) v = vid_t(point + 1);
  if (k == 1 && down) v = vid_t(point + w);
  if (k == 2 && right && down) v = vid_t(point + w + 1);
}

// Generated edge i: a pure function of the spec, the seed and i.
struct EdgeMaker {
  const GraphSpec& spec;
  uint64_t seed;
  void operator()(uint64_t i, vid_t& u, vid_t& v) const {
    switch (spec.kind) {
      case GraphSpec::Kind::kGrid: {
        // Row y holds its w-1 horizontal edges, then (but the last) w vertical ones.
        const uint64_t w = spec.width, y = i / (2 * w - 1), k = i % (2 * w - 1);
        u = vid_t(y * w + (k < w - 1 ? k : k - (w - 1)));
        v = k < w - 1 ? u + 1 : vid_t(u + w);
        return;
      }
      case GraphSpec::Kind::kRoad: road_edge(i, spec, seed, u, v); return;
      case GraphSpec::Kind::kKron: kron_edge(i, spec.scale, seed, u, v); return;
      case GraphSpec::Kind::kUrand: {
        const uint64_t mask = (1ull << spec.scale) - 1;
        u = vid_t(hash2(seed, 2 * i) & mask);
        v = vid_t(hash2(seed, 2 * i + 1) & mask);
        return;
      }
    }
  }
};

std::string spec_name(const GraphSpec& spec) {
  const std::string size = std::to_string(spec.width) + "x" + std::to_string(spec.height);
  switch (spec.kind) {
    case GraphSpec::Kind::kGrid: return "grid:" + size;
    case GraphSpec::Kind::kRoad: return "road:" + size;
    case GraphSpec::Kind::kKron: return "kron:" + std::to_string(spec.scale);
    case GraphSpec::Kind::kUrand: break;
  }
  return "urand:" + std::to_string(spec.scale);
}

// road's weights, by length, for every edge of the rows [lo, hi) of c.
Buffer<weight_t> road_weights(const Csr& c, const GraphSpec& spec, uint64_t seed, vid_t lo, vid_t hi) {
  Buffer<weight_t> weights(c.targets.size());
  weight_t* w = weights.mutable_data();
  const vid_t* t = c.targets.data();
  const eid_t* off = c.offsets.data();
#pragma omp parallel for schedule(static, 1 << 12)
  for (vid_t u = lo; u < hi; ++u)
    for (eid_t e = off[u]; e < off[u + 1]; ++e) w[e] = road_weight(spec, seed, u, t[e]);
  return weights;
}

}  // namespace

Graph generate_graph(const GraphSpec& spec, uint64_t seed, vid_t rows_lo, vid_t rows_hi) {
  const vid_t n = spec_size(spec).first;
  const uint64_t m = spec_size(spec).second;
  rows_hi = std::min(rows_hi, n);
  if (rows_lo != 0 || rows_hi != n)
    return generate_rows(spec, seed, generated_degree_offsets(spec, seed), rows_lo, rows_hi);
  const EdgeMaker edge{spec, seed};
  // The edge list, then the CSR of both directions.
  check_memory(m * 2 * sizeof(vid_t) + (uint64_t(n) + 1) * 2 * sizeof(eid_t) + 2 * m * sizeof(vid_t),
               "generating " + spec_name(spec));
  Progress progress("generating " + spec_name(spec), m);
  std::vector<EdgeList> lists(1);
  EdgeList& el = lists[0];
  el.src.resize(m);
  el.dst.resize(m);
#pragma omp parallel for schedule(static, 1 << 14)
  for (uint64_t i = 0; i < m; ++i) {
    edge(i, el.src[i], el.dst[i]);
    if ((i & ((1 << 20) - 1)) == 0) progress.add(1 << 20);
  }
  BuildOptions opt;
  opt.symmetrize = true;
  Graph g = build_graph(std::move(lists), n, /*weighted=*/false, opt);
  if (spec.kind == GraphSpec::Kind::kRoad) g.set_weights(road_weights(g.out(), spec, seed, 0, n));
  return g;
}

Graph generate_rows(const GraphSpec& spec, uint64_t seed, const std::vector<eid_t>& raw, vid_t lo, vid_t hi) {
  const vid_t n = spec_size(spec).first;
  const uint64_t m = spec_size(spec).second;
  CHATTY_CHECK(raw.size() == size_t(n) + 1 && lo <= hi && hi <= n, "generate_rows: bad rows (internal error)");
  const EdgeMaker edge{spec, seed};
  // The generated degrees are the rows' sizes before merging duplicates:
  // one pass places every edge that touches a row straight into it, with
  // no edge list.
  Csr c;
  c.offsets.allocate(size_t(n) + 1);
  eid_t* off = c.offsets.mutable_data();
  const eid_t first = raw[lo];
  for (vid_t v = 0; v <= n; ++v) off[v] = raw[std::clamp(v, lo, hi)] - first;
  const eid_t edges = off[hi];
  check_memory(edges * sizeof(vid_t) + (uint64_t(hi - lo) + 1) * sizeof(eid_t),
               "generating rows of " + spec_name(spec));
  c.targets.allocate(edges);
  vid_t* tgt = c.targets.mutable_data();
  {
    std::vector<eid_t> cursor(off + lo, off + hi);
    auto place = [&](vid_t u, vid_t v) {
      if (u < lo || u >= hi) return;
      tgt[std::atomic_ref<eid_t>(cursor[u - lo]).fetch_add(1, std::memory_order_relaxed)] = v;
    };
    Progress progress("generating rows of " + spec_name(spec), m);
#pragma omp parallel for schedule(static, 1 << 14)
    for (uint64_t i = 0; i < m; ++i) {
      vid_t u = 0, v = 0;
      edge(i, u, v);
      if (u != v) place(u, v), place(v, u);
      if ((i & ((1 << 20) - 1)) == 0) progress.add(1 << 20);
    }
  }
  sort_neighbor_lists(c);
  const eid_t kept = dedupe_neighbor_lists(c);
  c.targets.shrink(kept);
  if (spec.kind == GraphSpec::Kind::kRoad) c.weights = road_weights(c, spec, seed, lo, hi);
  return Graph(std::move(c), /*directed=*/false);
}

std::vector<eid_t> generated_degree_offsets(const GraphSpec& spec, uint64_t seed) {
  const vid_t n = spec_size(spec).first;
  const uint64_t m = spec_size(spec).second;
  const EdgeMaker edge{spec, seed};
  std::vector<eid_t> off(size_t(n) + 1, 0);
#pragma omp parallel for schedule(static, 1 << 14)
  for (uint64_t i = 0; i < m; ++i) {
    vid_t u = 0, v = 0;
    edge(i, u, v);
    if (u == v) continue;
    std::atomic_ref<eid_t>(off[u]).fetch_add(1, std::memory_order_relaxed);
    std::atomic_ref<eid_t>(off[v]).fetch_add(1, std::memory_order_relaxed);
  }
  parallel_exclusive_scan(off.data(), off.data(), n);
  return off;
}

}  // namespace chatty
