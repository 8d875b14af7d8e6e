// Strong components on one GPU device: rank 0's first device runs
// coloring.h's rounds with the GPU operators and steps.h's functors
// (peeling, the forward propagation of colours, the backward claim from
// each root); any other device or rank adds zeros. The graph and its
// reverse are uploaded once.
#include <memory>
#include <vector>

#include "apps/gpu_run.cuh"
#include "apps/scc/app.h"
#include "apps/scc/steps.h"
#include "runtime/base/interrupt.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/operators.cuh"
#include "runtime/cuda/row_devices.cuh"

namespace chatty {

namespace {

struct SccDevice {
  cuda::Stream stream;
  cuda::DeviceCsr out, in;
  cuda::DeviceArray<uint32_t> color, label, stamp, count;
  cuda::DeviceArray<vid_t> open, next;
  cuda::DeviceArray<unsigned> tail;
  cuda::DeviceLevelQueue forward, backward;
  cuda::OpStream ops{nullptr, 1};
};

struct Position {
  CHATTY_HD vid_t operator()(size_t i) const { return vid_t(i); }
};
struct At {
  const vid_t* list;
  CHATTY_HD vid_t operator()(size_t i) const { return list[i]; }
};
struct IsOpen {
  const uint32_t* label;
  CHATTY_HD bool operator()(vid_t v) const { return label[v] == scc::kOpen; }
};
struct NoneOpen {
  const uint32_t* count;
  CHATTY_HD bool operator()(vid_t v) const { return count[v] == 0; }
};
struct IsRoot {
  const uint32_t* color;
  CHATTY_HD bool operator()(vid_t v) const { return color[v] == v; }
};
// list[i] takes the value of its own id in `x` (a closed vertex's label, an open one's colour).
struct OwnId {
  const vid_t* list;
  uint32_t* x;
  CHATTY_HD void operator()(size_t i) const { x[list[i]] = list[i]; }
};
struct OpenAll {
  uint32_t* label;
  uint32_t* stamp;
  CHATTY_HD void operator()(size_t v) const { label[v] = scc::kOpen, stamp[v] = 0; }
};
struct Copy {
  const vid_t* from;
  vid_t* to;
  CHATTY_HD void operator()(size_t i) const { to[i] = from[i]; }
};

using cuda::DeviceCsr;
using cuda::DeviceLevel;

// The open vertices, into x.open; returns how many.
size_t still_open(SccDevice& x, vid_t n) {
  return cuda::filter(x.ops, n, Position{}, IsOpen{x.label.get()}, x.open.get(), x.tail.get());
}

// coloring.h's peel: the open vertices with no open neighbour along
// `side` close, and those that closing them leaves so, along `other`.
template <int L>
void peel(SccDevice& x, const Csr& host_other, const DeviceCsr& side, const DeviceCsr& other, size_t m) {
  const cuda::OpStream& s = x.ops;
  cuda::compute(s, 0, m,
                scc::CountOpen{side.offsets.get(), side.targets.get(), x.label.get(), x.open.get(), x.count.get()});
  const size_t closed = cuda::filter(s, m, At{x.open.get()}, NoneOpen{x.count.get()}, x.next.get(), x.tail.get());
  cuda::compute(s, 0, closed, OwnId{x.next.get(), x.label.get()});
  for (DeviceLevel l = x.backward.start(s, host_other, x.next.get(), vid_t(closed)); !l.empty();)
    l = cuda::advance<L>(s, other, x.backward, l, scc::Peel{x.count.get(), x.label.get()});
}

template <int L>
void components(SccDevice& x, const Csr& out, const Csr& in) {
  const vid_t n = out.num_vertices();
  const cuda::OpStream& s = x.ops;
  cuda::compute(s, 0, n, OpenAll{x.label.get(), x.stamp.get()});
  uint32_t level = 0;
  for (;;) {
    size_t m = still_open(x, n);
    if (m == 0 || interrupt_requested()) break;
    peel<L>(x, out, x.in, x.out, m);
    m = still_open(x, n);
    peel<L>(x, in, x.out, x.in, m);
    m = still_open(x, n);
    if (m == 0) break;
    cuda::compute(s, 0, m, OwnId{x.open.get(), x.color.get()});
    for (DeviceLevel l = x.forward.start(s, out, x.open.get(), vid_t(m)); !l.empty();) {
      l = cuda::advance<L>(s, x.out, x.forward, l, scc::Lower{x.color.get(), x.label.get(), x.stamp.get(), ++level});
      if (l.empty()) break;
      // The next level starts the queue again, so that it never holds more than two levels.
      cuda::compute(s, 0, l.hi - l.lo, Copy{x.forward.order() + l.lo, x.next.get()});
      l = x.forward.start(s, out, x.next.get(), l.hi - l.lo);
    }
    const size_t roots = cuda::filter(s, m, At{x.open.get()}, IsRoot{x.color.get()}, x.next.get(), x.tail.get());
    cuda::compute(s, 0, roots, OwnId{x.next.get(), x.label.get()});
    for (DeviceLevel l = x.backward.start(s, in, x.next.get(), vid_t(roots)); !l.empty();)
      l = cuda::advance<L>(s, x.in, x.backward, l, scc::Claim{x.color.get(), x.label.get()});
  }
}

}  // namespace

OperatorRun<uint64_t> SccProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  const Csr& out = g.out();
  const Csr& in = g.directed() ? g.in() : g.out();
  const vid_t n = g.num_vertices();
  const eid_t m = out.num_edges();
  CHATTY_CHECK(n < (vid_t(1) << 31), "scc: at most 2^31 vertices");
  if (d.share().rank != 0) return nothing_here<uint64_t>(n, "none (rank 0 computes the components)");
  OperatorRun<uint64_t> r;
  r.values.assign(n, 0);
  const uint64_t structure = 2 * ((uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t));
  const uint64_t bytes = structure + uint64_t(n) * (4 * sizeof(uint32_t) + 5 * sizeof(vid_t) + 2 * 8) + (64u << 20);
  const cuda::RowDevices& rd = d.place(1, bytes, "scc");
  cuda::DeviceSet<SccDevice> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<SccDevice>();
    x->ops = {x->stream.get(), rd.multiprocessors[size_t(dv)]};
    x->out.upload(out, x->stream.get());
    x->in.upload(in, x->stream.get());
    for (cuda::DeviceArray<uint32_t>* a : {&x->color, &x->label, &x->stamp, &x->count})
      a->allocate(std::max<vid_t>(n, 1));
    x->open.allocate(std::max<vid_t>(n, 1));
    x->next.allocate(std::max<vid_t>(n, 1));
    x->tail.allocate(1);
    x->forward.allocate(2 * n);  // a level and the one it grew from
    x->backward.allocate(n);
    x->stream.sync();
    return x;
  });
  // Lists as long as a warp are read by a warp; short ones by 4 lanes.
  const bool wide = m >= 12 * uint64_t(std::max<vid_t>(n, 1));
  const double run_seconds = dev.run([&](int, SccDevice& x) {
    wide ? components<32>(x, out, in) : components<4>(x, out, in);
    x.stream.sync();
  });
  throw_if_interrupted();
  std::vector<uint32_t> label(n, 0);
  dev.sum_into(label, n, [](SccDevice& x) { return x.label.get(); });  // one device: its labels
  dev.release();
  r.values.assign(label.begin(), label.end());
  dev.record(r, run_seconds, "none (one GPU device holds the graph and its reverse)", structure);
  return r;
}

void run_scc_gpu(const AppRun& r, AppOutput& out) {
  const std::vector<uint64_t> label = run_on_gpus(r, SccProgram{}, out);
  out.ints.assign(label.begin(), label.end());
}

}  // namespace chatty
