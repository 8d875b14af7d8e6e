#include "runtime/graph/graph.h"

#include <omp.h>

#include <algorithm>
#include <atomic>

#include "runtime/base/parallel.h"
#include "runtime/base/status.h"
#include "runtime/graph/graph_builder.h"

namespace chatty {

const Csr& Graph::in() const {
  if (!directed_) return *out_;
  CHATTY_CHECK(in_ || holds_all_rows(),
               "the in-edges of a directed graph need every row, and this rank holds its own only: "
               "symmetrize it (--undirected) or run an app that needs no in-edges");
  if (!in_) in_ = std::make_shared<Csr>(transpose(*out_));
  return *in_;
}

namespace {

// A CSR with `shared`'s offsets and targets (viewed, kept alive by it) and
// its own weights.
std::shared_ptr<Csr> reweighted(std::shared_ptr<Csr> shared, Buffer<weight_t> w) {
  auto c = std::make_shared<Csr>();
  c->offsets = Buffer<eid_t>(shared->offsets.data(), shared->offsets.size(), shared, shared->offsets.file_mapped());
  c->targets = Buffer<vid_t>(shared->targets.data(), shared->targets.size(), shared, shared->targets.file_mapped());
  c->weights = std::move(w);
  return c;
}

}  // namespace

void Graph::set_weights(Buffer<weight_t> w) {
  out_ = reweighted(out_, std::move(w));
  in_.reset();
  narrow_.reset();
}

void Graph::drop_weights() {
  out_ = reweighted(out_, Buffer<weight_t>());
  in_.reset();
  narrow_.reset();
}

const uint8_t* Graph::narrow_weights() const {
  if (!weighted()) return nullptr;
  if (!narrow_) {
    const Csr& c = *out_;
    const eid_t first = c.offsets[rows_lo()], last = c.offsets[rows_hi()];
    auto narrow = std::make_shared<Buffer<uint8_t>>(c.num_edges());  // a rank's other rows' stay untouched
    uint8_t* to = narrow->mutable_data();
    const weight_t* w = c.weights.data();
    weight_t widest = 0;
#pragma omp parallel for schedule(static) reduction(max : widest)
    for (eid_t e = first; e < last; ++e) {
      widest = std::max(widest, w[e]);
      to[e] = uint8_t(w[e]);
    }
    narrow_ = widest <= 0xff ? std::move(narrow) : std::make_shared<const Buffer<uint8_t>>();
  }
  return narrow_->empty() ? nullptr : narrow_->data();
}

Csr transpose(const Csr& csr) {
  const vid_t n = csr.num_vertices();
  const eid_t m = csr.num_edges();
  const bool weighted = !csr.weights.empty();
  Csr t;
  t.offsets.allocate(size_t(n) + 1);
  eid_t* off = t.offsets.mutable_data();
#pragma omp parallel for schedule(static)
  for (vid_t v = 0; v <= n; ++v) off[v] = 0;
#pragma omp parallel for schedule(dynamic, 1024)
  for (vid_t u = 0; u < n; ++u)
    for (eid_t e = csr.offsets[u]; e < csr.offsets[u + 1]; ++e)
      std::atomic_ref<eid_t>(off[csr.targets[e]]).fetch_add(1, std::memory_order_relaxed);
  parallel_exclusive_scan(off, off, n);
  t.targets.allocate(m);
  if (weighted) t.weights.allocate(m);
  // Sources are visited in increasing order per target only when the scatter
  // is sequential; instead scatter in parallel, then sort each list.
  Buffer<eid_t> cursor(n);
#pragma omp parallel for schedule(static)
  for (vid_t v = 0; v < n; ++v) cursor[v] = off[v];
#pragma omp parallel for schedule(dynamic, 1024)
  for (vid_t u = 0; u < n; ++u)
    for (eid_t e = csr.offsets[u]; e < csr.offsets[u + 1]; ++e) {
      vid_t v = csr.targets[e];
      eid_t pos = std::atomic_ref<eid_t>(cursor[v]).fetch_add(1, std::memory_order_relaxed);
      t.targets[pos] = u;
      if (weighted) t.weights[pos] = csr.weights[e];
    }
  sort_neighbor_lists(t);
  return t;
}

uint64_t out_edges_of_set(const Graph& g, const std::vector<uint32_t>& values, uint32_t unset) {
  const vid_t n = g.num_vertices();
  uint64_t m = 0;
#pragma omp parallel for schedule(static) reduction(+ : m)
  for (vid_t v = 0; v < n; ++v)
    if (values[v] != unset) m += g.out_degree(v);
  return m;
}

}  // namespace chatty
