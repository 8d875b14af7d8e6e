// Kernels of the traversal programs (BFS, SSSP, WCC by label propagation):
// the push relaxation, the bottom-up pull step, merging the peers' updates,
// turning the changed list into the next frontier, SSSP's bucket split, and
// the compaction of changed boundary vertices into the send buffer with
// warp-ballot offsets (the ChattyGraph paper, section 4.3). Counts live in device memory
// and are read by the kernels, so a superstep needs no host round trip
// until its status is published.
#pragma once

#include "kernels/cuda/advance.cuh"
#include "runtime/base/operators.h"
#include "runtime/base/status_data.h"

namespace chatty::cuda {

// Per-device counters of one superstep (device memory).
struct Counters {
  ull active = 0;   // items in the active queue
  ull changed = 0;  // items in the changed list
  ull sent = 0;     // records in the send buffer
  ull updated = 0, edges = 0, scout = 0;
  ull bucket = ~0ull;      // lowest non-empty bucket (SSSP)
  ull pile = 0, rest = 0;  // SSSP pending vertices (current and rebuilt pile)
  double l1 = 0, dangling = 0;
  ull steps = 0;  // supersteps begun with work since the last sync
};

// Edge functor of the push advance: offer scatter(u) to v; the first thread
// to change v in this superstep (claim[v] != epoch) lists it.
template <typename P>
struct PushRelax {
  P prog;
  const vid_t* targets;
  const weight_t* weights;  // null: weight 1
  uint32_t* values;
  uint32_t* claim;
  uint32_t epoch;
  vid_t* changed;
  ull* changed_count;
  __device__ void operator()(vid_t u, eid_t e) const {
    const vid_t v = targets[e];
    const uint32_t offer = prog.scatter(values[u], u, v, weights ? weights[e] : 1u);
    if (ops::reduce_into<P>(&values[v], offer) && atomicExch(&claim[v], epoch) != epoch)
      changed[append_slot(changed_count)] = v;
  }
};

// Bottom-up step over owned vertices [lo, lo+nd) (first-visit programs):
// an unvisited vertex takes the level from its first in-neighbour in the frontier.
template <typename P>
__global__ void pull_kernel(P prog, const eid_t* in_off, const vid_t* in_targets, vid_t lo, vid_t nd, uint32_t* values,
                            const uint32_t* front, uint32_t level, vid_t* changed, Counters* c) {
  ull visited = 0;
  // Only first-visit programs pull on the GPU: the level is uniform and
  // every edge weighs 1 (the CPU pull step is general).
  static_assert(P::kUniformFrontier && !P::kNeedsWeights, "GPU pull steps take the uniform level");
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < nd; i += ull(gridDim.x) * blockDim.x) {
    const vid_t v = lo + vid_t(i);
    if (!P::unvisited(values[v])) continue;
    for (eid_t e = in_off[i]; e < in_off[i + 1]; ++e) {
      ++visited;
      const vid_t u = in_targets[e];
      if (test_bit(front, u)) {
        values[v] = prog.scatter(level, u, v, 1u);
        changed[append_slot(&c->changed)] = v;
        break;
      }
    }
  }
  visited = warp_sum(visited);
  if ((threadIdx.x & 31) == 0 && visited) atomicAdd(&c->edges, visited);
}

// The changed list becomes the next frontier: every changed vertex enters
// the frontier bitmap (pull steps read it), owned ones the active queue.
static __global__ void activate_kernel(const vid_t* changed, vid_t lo, vid_t hi, const eid_t* off, uint32_t* stamp,
                                       uint32_t epoch, vid_t* active, uint32_t* front, Counters* c) {
  const ull count = c->changed;
  ull updated = 0, scout = 0;
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x) {
    const vid_t v = changed[i];
    if (front) set_bit(front, v);
    if (v < lo || v >= hi) continue;
    ++updated;
    scout += ull(off[v - lo + 1] - off[v - lo]);
    if (atomicExch(&stamp[v], epoch) != epoch) active[append_slot(&c->active)] = v;
  }
  add_warp_total(&c->updated, updated);
  add_warp_total(&c->scout, scout);
}

// Folds one peer's records into the replica; owned vertices that change
// join the active queue (ordered programs: the pile), every changed one the bitmap.
template <typename P>
__global__ void merge_kernel(const Update<uint32_t>* rec, ull count, uint32_t* values, vid_t lo, vid_t hi,
                             uint32_t* stamp, uint32_t epoch, vid_t* active, ull* active_count, uint32_t* front,
                             Counters* c) {
  ull updated = 0;
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x) {
    const vid_t v = rec[i].v;
    if (!ops::reduce_into<P>(&values[v], rec[i].value)) continue;
    if (front) set_bit(front, v);
    if (v < lo || v >= hi) continue;
    ++updated;
    if (atomicExch(&stamp[v], epoch) != epoch) active[append_slot(active_count)] = v;
  }
  add_warp_total(&c->updated, updated);
}

// Compaction (the ChattyGraph paper, section 4.3): the listed vertices that are remote or
// boundary (`boundary` null: all of them) go to the send buffer as
// (v, src[v]); each warp takes its offset with one atomic, lanes place
// their records by the popcount of the ballot below them. `count` null:
// the list has `fixed` items.
template <typename V>
// Records past `capacity` are counted but not written: the host refuses a
// count above capacity at the status exchange rather than overrun a slot.
static __global__ void compact_kernel(const vid_t* list, const ull* count, ull fixed, const uint8_t* boundary, vid_t lo,
                                      vid_t hi, const V* src, Update<V>* out, ull capacity, ull* out_count) {
  const ull n = count ? *count : fixed;
  const ull rounded = (n + 31) & ~ull(31);  // whole warps iterate together
  const int lane = threadIdx.x & 31;
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < rounded; i += ull(gridDim.x) * blockDim.x) {
    vid_t v = 0;
    bool send = false;
    if (i < n) {
      v = list[i];
      send = !boundary || v < lo || v >= hi || boundary[v];  // no flags: every listed vertex
    }
    const unsigned ballot = __ballot_sync(kFullMask, send);
    if (!ballot) continue;
    ull base = 0;
    if (lane == 0) base = atomicAdd(out_count, ull(__popc(ballot)));
    base = __shfl_sync(kFullMask, base, 0);
    const ull at = base + __popc(ballot & ((1u << lane) - 1u));
    if (send && at < capacity) out[at] = Update<V>{v, src[v]};
  }
}

// SSSP: moves the pile's vertices in buckets <= `bucket` to the frontier
// and keeps the others in `rest`; `in_pile` flags stay set only for kept ones.
// kWarpMin: the lowest kept bucket by one atomic per warp (--gpu_bucket_min).
template <typename P, bool kWarpMin>
__global__ void split_kernel(P prog, const vid_t* pile, const uint32_t* values, uint64_t delta, ull bucket,
                             uint32_t* in_pile, vid_t* frontier, vid_t* rest, Counters* c) {
  const ull n = c->pile;
  ull low = ~0ull;
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += ull(gridDim.x) * blockDim.x) {
    const vid_t v = pile[i];
    const ull b = prog.priority(values[v]) / delta;
    if (b <= bucket) {
      in_pile[v] = 0;
      frontier[append_slot(&c->active)] = v;
    } else {
      rest[append_slot(&c->rest)] = v;
      low = b < low ? b : low;
    }
  }
  // The kept items' lowest bucket: one whose value drops in the relaxation
  // that follows is in the changed list, whose buckets are added after it.
  min_into<kWarpMin>(&c->bucket, low);
}

// SSSP after a relaxation: owned changed vertices join the pile, and the
// lowest bucket of everything pending (changed vertices included: their
// owners will pile them) becomes this device's status.
template <typename P, bool kWarpMin>
__global__ void pile_changed_kernel(P prog, const vid_t* changed, vid_t lo, vid_t hi, const uint32_t* values,
                                    uint64_t delta, uint32_t* in_pile, vid_t* pile, ull* pile_count, Counters* c) {
  const ull count = c->changed;
  ull low = ~0ull, updated = 0;
  for (ull i = ull(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += ull(gridDim.x) * blockDim.x) {
    const vid_t v = changed[i];
    const ull b = prog.priority(values[v]) / delta;
    low = b < low ? b : low;
    if (v < lo || v >= hi) continue;
    ++updated;
    if (atomicExch(&in_pile[v], 1u) == 0) pile[append_slot(pile_count)] = v;
  }
  min_into<kWarpMin>(&c->bucket, low);
  add_warp_total(&c->updated, updated);
}

// Status data straight into the device's slot of the board, which lives in
// mapped pinned host memory (UVA): the host thread reads it after the stream
// synchronises, the peers after the barrier.
// Where the running family's status slots come from: a device counter, or
// else a value the host set (WCC's vote).
struct SlotSources {
  const ull* word[kStatusWords] = {nullptr, nullptr};
  const double* real[kStatusReals] = {nullptr, nullptr};
  ull word_value[kStatusWords] = {0, 0};
};

static __global__ void publish_kernel(const Counters* c, DeviceStatus* slot, SlotSources src) {
  DeviceStatus s;
  s.sent = c->sent;
  s.active = c->active;
  s.updated = c->updated;
  s.edges = c->edges;
  s.supersteps = c->steps > 1 ? c->steps : 1;
  for (int i = 0; i < kStatusWords; ++i) s.word[i] = src.word[i] ? *src.word[i] : src.word_value[i];
  for (int i = 0; i < kStatusReals; ++i) s.real[i] = src.real[i] ? *src.real[i] : 0.0;
  *slot = s;
}

}  // namespace chatty::cuda
