#include "datasets/cgr_format.h"

#include <omp.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "datasets/load.h"
#include "datasets/mapped_file.h"
#include "datasets/text_source.h"
#include "runtime/base/hash.h"
#include "runtime/base/status.h"

namespace chatty {
namespace {

constexpr const char* kMagic = kCgrMagic;
constexpr uint32_t kDirected = 1, kWeighted = 2;

struct Header {
  char magic[8];
  uint32_t version;
  uint32_t flags;
  uint64_t num_vertices;
  uint64_t num_edges;
  uint64_t checksum;
  uint64_t reserved[3];
};
static_assert(sizeof(Header) == 64);

uint64_t pad8(uint64_t x) { return (x + 7) & ~uint64_t(7); }

struct Layout {
  uint64_t offsets, targets, weights, ids, total;
};

Layout layout(uint64_t n, uint64_t m, bool weighted, bool ids) {
  Layout l{};
  l.offsets = sizeof(Header);
  l.targets = l.offsets + (n + 1) * sizeof(eid_t);
  l.weights = pad8(l.targets + m * sizeof(vid_t));
  l.total = weighted ? l.weights + m * sizeof(weight_t) : l.targets + m * sizeof(vid_t);
  l.ids = pad8(l.total);
  if (ids) l.total = l.ids + n * sizeof(uint64_t);
  return l;
}

// Hash of a byte range, parallel over 1 MiB blocks whose hashes are folded
// in order; four independent lanes per block keep one core near memory speed.
uint64_t block_hash(const unsigned char* p, size_t n, uint64_t seed) {
  uint64_t h[4] = {seed, seed ^ 1, seed ^ 2, seed ^ 3};
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int k = 0; k < 4; ++k) {
      uint64_t w;
      std::memcpy(&w, p + i + 8 * k, 8);
      h[k] = (h[k] ^ w) * 0x100000001B3ull + (h[k] >> 29);
    }
  uint64_t tail = 0;
  for (; i < n; ++i) tail = (tail << 8) | p[i];
  return splitmix64(h[0] ^ splitmix64(h[1] ^ splitmix64(h[2] ^ splitmix64(h[3] ^ tail ^ n))));
}

// Checksum of several ranges taken as one byte stream (the payload as the
// file holds it), hashed in 1 MiB blocks in parallel and folded in order.
// Blocks that straddle two ranges are gathered into a small buffer.
uint64_t checksum(const std::vector<std::pair<const void*, size_t>>& ranges, const Header& h) {
  constexpr size_t kBlock = 1 << 20;
  std::vector<size_t> start(ranges.size() + 1, 0);
  for (size_t r = 0; r < ranges.size(); ++r) start[r + 1] = start[r] + ranges[r].second;
  const size_t total = start.back();
  const size_t blocks = (total + kBlock - 1) / kBlock;
  std::vector<uint64_t> hs(blocks);
#pragma omp parallel
  {
    std::vector<unsigned char> gather;
#pragma omp for schedule(dynamic, 4)
    for (size_t b = 0; b < blocks; ++b) {
      const size_t lo = b * kBlock, len = std::min(kBlock, total - lo);
      size_t r = 0;
      while (start[r + 1] <= lo) ++r;
      const auto* p = static_cast<const unsigned char*>(ranges[r].first) + (lo - start[r]);
      if (lo + len > start[r + 1]) {  // straddles ranges: gather
        gather.resize(len);
        for (size_t done = 0, at = lo; done < len; ++r) {
          size_t take = std::min(len - done, start[r + 1] - at);
          std::memcpy(gather.data() + done, static_cast<const unsigned char*>(ranges[r].first) + (at - start[r]), take);
          done += take;
          at += take;
        }
        p = gather.data();
      }
      hs[b] = block_hash(p, len, b);
    }
  }
  uint64_t acc =
      splitmix64(h.version ^ (uint64_t(h.flags) << 32) ^ splitmix64(h.num_vertices ^ splitmix64(h.num_edges)));
  for (uint64_t x : hs) acc = splitmix64(acc ^ x);
  return splitmix64(acc ^ total);
}

}  // namespace

Graph read_cgr(const std::string& path, VertexIds* ids) {
  auto file = MappedFile::open(path);
  const auto* base = reinterpret_cast<const unsigned char*>(file->data());
  CHATTY_CHECK(file->size() >= sizeof(Header),
               path + ": truncated .cgr file (" + std::to_string(file->size()) + " bytes, header is 64)");
  Header h;
  std::memcpy(&h, base, sizeof h);
  CHATTY_CHECK(std::memcmp(h.magic, kMagic, 8) == 0, path + ": not a .cgr file (bad magic)");
  CHATTY_CHECK(h.version == 1 || h.version == 2, path + ": unsupported .cgr version " + std::to_string(h.version) +
                                                     " (this build reads versions 1 and 2)");
  const uint64_t scheme = h.version == 2 ? h.reserved[0] : 0;
  CHATTY_CHECK(scheme <= 2, path + ": corrupted .cgr header (id scheme " + std::to_string(scheme) + ")");
  CHATTY_CHECK((h.flags & ~(kDirected | kWeighted)) == 0, path + ": corrupted .cgr header (unknown flags)");
  CHATTY_CHECK(h.num_vertices > 0 && h.num_vertices <= kMaxVertices - 1 && h.num_edges < (uint64_t(1) << 48),
               path + ": corrupted .cgr header (|V| = " + std::to_string(h.num_vertices) + ")");
  const bool weighted = h.flags & kWeighted;
  const Layout l = layout(h.num_vertices, h.num_edges, weighted, scheme == 2);
  CHATTY_CHECK(file->size() >= l.total, path + ": truncated .cgr file: " + std::to_string(file->size()) +
                                            " bytes, header promises " + std::to_string(l.total));
  CHATTY_CHECK(file->size() == l.total,
               path + ": corrupted .cgr file: " + std::to_string(file->size() - l.total) + " trailing bytes");
  uint64_t sum = checksum({{base + sizeof(Header), l.total - sizeof(Header)}}, h);
  CHATTY_CHECK(sum == h.checksum, path + ": corrupted .cgr file (checksum mismatch)");

  const uint64_t n = h.num_vertices, m = h.num_edges;
  const auto* off = reinterpret_cast<const eid_t*>(base + l.offsets);
  const auto* tgt = reinterpret_cast<const vid_t*>(base + l.targets);
  bool ok = off[0] == 0 && off[n] == m;
  // A checksum can be forged or collide; the invariants below keep every
  // later array access in bounds regardless.
#pragma omp parallel for schedule(dynamic, 4096) reduction(&& : ok)
  for (uint64_t v = 0; v < n; ++v) {
    bool good = off[v] <= off[v + 1] && off[v + 1] <= m;
    if (good)
      for (eid_t e = off[v]; e < off[v + 1]; ++e) good = good && tgt[e] < n;
    ok = ok && good;
  }
  CHATTY_CHECK(ok, path + ": corrupted .cgr file (offsets or targets out of range)");
  if (ids) {
    *ids = VertexIds{};
    ids->scheme = scheme == 2 ? IdScheme::kOccurring : scheme == 1 ? IdScheme::kOneBased : IdScheme::kPositions;
    if (scheme == 2) {
      const auto* id = reinterpret_cast<const uint64_t*>(base + l.ids);
      ids->original.assign(id, id + n);
      CHATTY_CHECK(std::is_sorted(ids->original.begin(), ids->original.end()) &&
                       std::adjacent_find(ids->original.begin(), ids->original.end()) == ids->original.end(),
                   path + ": corrupted .cgr file (the ids are not ascending and distinct)");
    }
  }

  Csr csr;
  std::shared_ptr<const void> keep = file;
  csr.offsets = Buffer<eid_t>(off, n + 1, keep, /*file_mapped=*/true);
  csr.targets = Buffer<vid_t>(tgt, m, keep, /*file_mapped=*/true);
  if (weighted) csr.weights = Buffer<weight_t>(reinterpret_cast<const weight_t*>(base + l.weights), m, keep);
  return Graph(std::move(csr), h.flags & kDirected);
}

void write_cgr(const Graph& g, const std::string& path, const VertexIds& ids) {
  const Csr& c = g.out();
  Header h{};
  std::memcpy(h.magic, kMagic, 8);
  // Positions stay version 1, which every build reads.
  const uint64_t scheme = ids.scheme == IdScheme::kOccurring ? 2 : ids.scheme == IdScheme::kOneBased ? 1 : 0;
  h.version = scheme ? 2 : 1;
  h.reserved[0] = scheme;
  h.flags = (g.directed() ? kDirected : 0) | (g.weighted() ? kWeighted : 0);
  h.num_vertices = g.num_vertices();
  h.num_edges = g.num_edges();
  const Layout l = layout(h.num_vertices, h.num_edges, g.weighted(), scheme == 2);
  const uint64_t zero = 0;
  const size_t pad = l.weights - (l.targets + h.num_edges * sizeof(vid_t));
  std::vector<std::pair<const void*, size_t>> parts = {{c.offsets.data(), c.offsets.size() * sizeof(eid_t)},
                                                       {c.targets.data(), c.targets.size() * sizeof(vid_t)}};
  if (g.weighted()) {
    parts.push_back({&zero, pad});
    parts.push_back({c.weights.data(), c.weights.size() * sizeof(weight_t)});
  }
  if (scheme == 2) {
    CHATTY_CHECK(ids.original.size() == h.num_vertices,
                 path + ": the id map does not match the graph (internal error)");
    const uint64_t end = g.weighted() ? l.weights + h.num_edges * sizeof(weight_t) : l.targets + h.num_edges * 4;
    parts.push_back({&zero, l.ids - end});
    parts.push_back({ids.original.data(), ids.original.size() * sizeof(uint64_t)});
  }
  h.checksum = checksum(parts, h);
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw Error(path + ": cannot write: " + std::strerror(errno));
  bool ok = std::fwrite(&h, sizeof h, 1, f) == 1;
  for (auto [p, n] : parts) ok = ok && std::fwrite(p, 1, n, f) == n;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) throw Error(path + ": write failed: " + std::strerror(errno));
}

Graph load_cgr(const std::string& what, std::unique_ptr<TextSource>& src, const LoadOptions& opt, LoadInfo& info) {
  CHATTY_CHECK(src->mapped(), src->path() +
                                  ": a .cgr graph is used in place and must be a regular, "
                                  "uncompressed file (decompress it first)");
  src.reset();
  Graph g = read_cgr(what, &info.ids);
  info.format = "cgr";
  info.direction_reason = "stored in the .cgr file";
  if (opt.build.symmetrize && g.directed()) {
    g = symmetrized(g);
    info.direction_reason = "asked for (--undirected)";
  }
  if (opt.weights == WeightUse::kIgnored && g.weighted()) {
    g.drop_weights();
    info.weights_dropped = true;
  }
  return g;
}

}  // namespace chatty
