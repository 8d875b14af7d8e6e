// WCC kernels (Afforest across devices, as kernels/cpu/union_find.h and
// runtime/multi_engine.h's connectivity on the CPU): link a sample of
// neighbours, compress, link the remaining edges of vertices outside the
// giant component, settle the boundary labels and link what peers send.
#pragma once

#include "kernels/cuda/advance.cuh"
#include "kernels/cuda/traversal.cuh"

namespace chatty::cuda {

// Owned vertices with the edges from `skip` on; those labelled `giant` have none.
struct RestSource {
  const eid_t* off;
  vid_t lo, nd;
  eid_t skip;
  const vid_t* label;
  vid_t giant;
  ull n;
  __device__ ull size() const { return n; }
  __device__ void get(ull i, vid_t& u, eid_t& b, eid_t& e) const {
    u = lo + vid_t(i);
    e = off[i + 1];
    b = off[i] + skip;
    if (b > e || reinterpret_cast<const volatile vid_t*>(label)[u] == giant) b = e;
  }
};

struct LinkEdge {
  const vid_t* targets;
  vid_t* label;
  __device__ void operator()(vid_t u, eid_t e) const { uf_link(u, targets[e], label); }
};

// Round r of the sample: every owned vertex links to its r-th neighbour.
static __global__ void link_sample_kernel(const eid_t* off, const vid_t* targets, vid_t lo, vid_t nd, eid_t r,
                                          vid_t* label) {
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < nd; i += ull(gridDim.x) * blockDim.x)
    if (off[i] + r < off[i + 1]) uf_link(lo + vid_t(i), targets[off[i] + r], label);
}

static __global__ void compress_kernel(vid_t lo, vid_t hi, vid_t* label) {
  for (ull v = lo + ull(blockIdx.x) * blockDim.x + threadIdx.x; v < hi; v += ull(gridDim.x) * blockDim.x)
    label[v] = uf_find(vid_t(v), label);
}

// Peers' (v, label) records: link v's tree with the label's.
static __global__ void link_received_kernel(const Update<uint32_t>* rec, ull count, vid_t* label) {
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x)
    uf_link(rec[i].v, rec[i].value, label);
}

// Resolves every boundary vertex's label; those that dropped since they
// were last sent are listed for the compaction.
static __global__ void settle_kernel(const vid_t* boundary, ull count, vid_t lo, vid_t hi, vid_t* label, vid_t* prev,
                                     vid_t* changed, Counters* c) {
  ull updated = 0;
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x) {
    const vid_t v = boundary[i];
    const vid_t r = uf_find(v, label);
    label[v] = r;
    if (r == prev[v]) continue;
    prev[v] = r;
    updated += v >= lo && v < hi;
    changed[append_slot(&c->changed)] = v;
  }
  add_warp_total(&c->updated, updated);
}

// Roots of `count` sampled owned vertices, for the giant-component vote.
static __global__ void sample_roots_kernel(const vid_t* samples, int count, const vid_t* label, vid_t* roots) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count) roots[i] = uf_find(samples[i], label);
}

}  // namespace chatty::cuda
