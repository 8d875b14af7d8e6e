// WCC kernels for the connectivity driver (runtime/drivers/connectivity.h),
// as kernels/cpu/union_find.h on the CPU: link a sample of neighbours,
// compress, link the remaining edges of vertices outside the giant
// component, list the shared vertices whose roots peers must learn, and
// link what peers send.
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

// Peers' (v, root) records: link v's tree with the root's; the root is
// shared from now on (peers may hold it in a tree).
static __global__ void link_received_kernel(const Update<uint32_t>* rec, ull count, vid_t* label, uint8_t* shared) {
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x) {
    uf_link(rec[i].v, rec[i].value, label);
    shared[rec[i].value] = 1;
  }
}

static __global__ void flag_kernel(const vid_t* list, ull count, uint8_t* flags) {
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x)
    flags[list[i]] = 1;
}

// The sample's news for peers: every boundary vertex that is no longer a
// root is listed (to travel with its root), and its root becomes shared.
static __global__ void describe_kernel(const vid_t* boundary, ull count, vid_t* label, uint8_t* shared, vid_t* listed,
                                       Counters* c) {
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x) {
    const vid_t v = boundary[i];
    const vid_t r = uf_find(v, label);
    if (r == v) continue;
    label[v] = r;
    shared[r] = 1;
    listed[append_slot(&c->changed)] = v;
  }
}

// After the rest stage's links: every shared vertex whose root moved since
// `prev` (the roots before the links) is listed, to travel with its root.
// A root found here was a root before, so it is never listed itself.
static __global__ void moved_kernel(vid_t n, vid_t* label, vid_t* prev, uint8_t* shared, vid_t* listed, Counters* c) {
  for (ull v = ull(blockIdx.x) * blockDim.x + threadIdx.x; v < n; v += ull(gridDim.x) * blockDim.x) {
    if (!shared[v]) continue;
    const vid_t r = uf_find(vid_t(v), label);
    if (r == prev[v]) continue;
    label[v] = prev[v] = r;
    shared[r] = 1;
    listed[append_slot(&c->changed)] = vid_t(v);
  }
}

// Roots of `count` sampled owned vertices, for the giant-component vote.
static __global__ void sample_roots_kernel(const vid_t* samples, int count, const vid_t* label, vid_t* roots) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count) roots[i] = uf_find(samples[i], label);
}

}  // namespace chatty::cuda
