// The GPU operators against the host operators, with the same CHATTY_HD
// functors: advance as a BFS (depths and levels; push, pull and by the
// engine's rule), edge marks read back by
// gather, and filter, gather and reduce over 16-byte values. Labelled
// `gpu` with the other GPU tests; skips without a usable GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "datasets/load.h"
#include "operator_values.h"
#include "runtime/cuda/gpu_plan.h"
#include "runtime/cuda/operators.cuh"
#include "runtime/host/operators.h"

namespace chatty {
namespace {

using testing::AddTally;
using testing::Tally;

// Edge u -> v into the next level: v unreached joins, the edge is marked.
struct MarkTree {
  int32_t* depth;
  int32_t next;
  CHATTY_HD unsigned operator()(vid_t, vid_t v, eid_t) const {
    int32_t seen = ops::atomic_load(depth + v);
    unsigned visit = ops::kSkip;
    if (seen < 0 && (seen = ops::atomic_cas(depth + v, -1, next)) < 0) seen = next, visit = ops::kJoin;
    return seen == next ? visit | ops::kMark : visit;
  }
};
// BFS by advance, push or pull: an unreached v joins at depth next.
struct Reach {
  int32_t* depth;
  int32_t next;
  CHATTY_HD unsigned operator()(vid_t, vid_t v, eid_t) const {
    if (ops::atomic_load(depth + v) >= 0 || ops::atomic_cas(depth + v, -1, next) >= 0) return ops::kSkip;
    return ops::kJoin | ops::kStop;
  }
  CHATTY_HD bool wanted(vid_t v) const { return ops::atomic_load(depth + v) < 0; }
};
struct Unreached {
  int32_t* depth;
  vid_t source;
  CHATTY_HD void operator()(size_t i) const { depth[i] = vid_t(i) == source ? 0 : -1; }
};
struct NeighbourTally {
  CHATTY_HD Tally operator()(vid_t, vid_t w, eid_t) const { return {double(w), w, 1}; }
};
struct StoreTally {
  Tally* out;
  CHATTY_HD void operator()(vid_t v, Tally t) const { out[v] = t; }
};
struct DegreeTally {
  const eid_t* offsets;
  CHATTY_HD Tally operator()(size_t v) const {
    const uint32_t d = uint32_t(offsets[v + 1] - offsets[v]);
    return {double(d), d, 1};
  }
};
struct Identity {
  CHATTY_HD vid_t operator()(size_t i) const { return vid_t(i); }
};
struct DegreeAbove {
  const eid_t* offsets;
  eid_t least;
  CHATTY_HD bool operator()(vid_t v) const { return offsets[v + 1] - offsets[v] > least; }
};

template <typename T>
std::vector<T> to_host(const cuda::DeviceArray<T>& a, size_t n) {
  std::vector<T> h(n);
  CHATTY_CUDA(cudaMemcpy(h.data(), a.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

TEST(GpuOperators, SameAnswersAsTheHostOperators) {
  if (probe_gpus().gpus.empty()) GTEST_SKIP() << "no usable GPU: " << probe_gpus().why_none;
  for (const char* spec : {"kron:12", "grid:30x20"}) {
    const Graph g = load_graph(spec, {});
    const Csr& c = g.out();
    const vid_t n = c.num_vertices();
    const vid_t source = 1;
    // The host's answers.
    std::vector<int32_t> depth(n);
    host::LevelQueue q(n);
    host::EdgeMarks marks(c.num_edges());
    std::vector<Tally> rows(n, Tally{0, 0, 0});  // unreached rows stay zero on both
    Tally all{};
    std::vector<vid_t> kept(n);
    size_t kept_count = 0;
    host::Team(2).run([&](host::TeamThread& t) {
      host::compute(t, 0, n, Unreached{depth.data(), source});
      marks.clear(t);
      for (host::Level l = q.start(t, c, {&source, 1}); !l.empty();)
        l = host::advance(t, c, q, l, MarkTree{depth.data(), l.index + 1}, ops::Direction::kPush, &marks);
      host::gather<Tally>(t, c, q.order(), 0, q.size(), NeighbourTally{}, AddTally{}, StoreTally{rows.data()}, &marks);
      const Tally a = host::reduce(t, 0, n, Tally{0, 0, 0}, DegreeTally{c.offsets.data()}, AddTally{});
      const size_t k = host::filter(t, n, Identity{}, DegreeAbove{c.offsets.data(), 4}, kept.data());
      if (t.lead()) all = a, kept_count = k;
    });
    // The GPU's, with the same functors.
    cuda::Stream stream;
    const cuda::OpStream s{stream.get(), probe_gpus().gpus[0].multiprocessors};
    cuda::DeviceCsr dc;
    dc.upload(c, s.stream);
    cuda::DeviceLevelQueue dq;
    dq.allocate(n);
    cuda::DeviceEdgeMarks dm;
    dm.allocate(c.num_edges());
    cuda::DeviceArray<int32_t> ddepth;
    ddepth.allocate(n);
    cuda::DeviceArray<Tally> drows;
    drows.allocate(n);
    CHATTY_CUDA(cudaMemsetAsync(drows.get(), 0, n * sizeof(Tally), s.stream));
    cuda::DeviceArray<vid_t> dkept;
    dkept.allocate(n);
    cuda::DeviceArray<Tally> partial;
    cuda::DeviceArray<unsigned> tail;
    tail.allocate(1);
    cuda::compute(s, 0, n, Unreached{ddepth.get(), source});
    dm.clear(s, c.num_edges());
    int levels = 0;
    for (cuda::DeviceLevel l = dq.start(s, c, source); !l.empty(); ++levels)
      l = cuda::advance<4>(s, dc, dq, l, MarkTree{ddepth.get(), l.index + 1}, ops::Direction::kPush, &dm);
    const vid_t reached = dq.size();
    cuda::gather<4, Tally>(s, dc, dq.order(), 0, reached, NeighbourTally{}, AddTally{}, StoreTally{drows.get()}, &dm);
    const Tally gall = cuda::reduce<Tally>(s, 0, n, Tally{0, 0, 0}, DegreeTally{dc.offsets.get()}, AddTally{}, partial);
    const size_t gkept = cuda::filter(s, n, Identity{}, DegreeAbove{dc.offsets.get(), 4}, dkept.get(), tail.get());
    stream.sync();

    EXPECT_EQ(to_host(ddepth, n), depth) << spec;
    EXPECT_EQ(levels, q.levels()) << spec;
    EXPECT_EQ(size_t(reached), q.size()) << spec;
    const std::vector<Tally> grows = to_host(drows, n);
    for (vid_t v = 0; v < n; ++v) {
      EXPECT_EQ(grows[v].sum, rows[v].sum) << spec << " vertex " << v;
      EXPECT_EQ(grows[v].most, rows[v].most) << spec << " vertex " << v;
      EXPECT_EQ(grows[v].count, rows[v].count) << spec << " vertex " << v;
    }
    EXPECT_EQ(gall.sum, all.sum);
    EXPECT_EQ(gall.most, all.most);
    EXPECT_EQ(gall.count, all.count);
    std::vector<vid_t> gk = to_host(dkept, gkept), hk(kept.begin(), kept.begin() + long(kept_count));
    std::sort(gk.begin(), gk.end());
    std::sort(hk.begin(), hk.end());
    EXPECT_EQ(gk, hk) << spec;
  }
}

TEST(GpuOperators, AdvanceIsABfsPushPullAndByTheRule) {
  if (probe_gpus().gpus.empty()) GTEST_SKIP() << "no usable GPU: " << probe_gpus().why_none;
  for (const char* spec : {"kron:12", "grid:30x20", "urand:11:6"}) {
    const Graph g = load_graph(spec, {});
    const Csr& c = g.out();
    const vid_t n = c.num_vertices(), source = 1;
    std::vector<int32_t> want(n);
    host::LevelQueue q(n);
    host::Team(2).run([&](host::TeamThread& t) {
      host::compute(t, 0, n, Unreached{want.data(), source});
      for (host::Level l = q.start(t, c, {&source, 1}); !l.empty();)
        l = host::advance(t, c, q, l, Reach{want.data(), l.index + 1});
    });
    cuda::Stream stream;
    const cuda::OpStream s{stream.get(), probe_gpus().gpus[0].multiprocessors};
    cuda::DeviceCsr dc, din;
    dc.upload(c, s.stream);
    din.upload(g.in(), s.stream);
    cuda::DeviceLevelQueue dq;
    dq.allocate(n);
    cuda::DeviceArray<int32_t> depth;
    depth.allocate(n);
    for (ops::Direction dir : {ops::Direction::kPush, ops::Direction::kPull, ops::Direction::kAuto}) {
      cuda::compute(s, 0, n, Unreached{depth.get(), source});
      int pulls = 0;
      for (cuda::DeviceLevel l = dq.start(s, c, source); !l.empty();) {
        pulls += dir == ops::Direction::kAuto && l.pull;
        l = cuda::advance<4>(s, dc, dq, l, Reach{depth.get(), l.index + 1}, dir, nullptr, &din);
      }
      stream.sync();
      EXPECT_EQ(to_host(depth, n), want) << spec << ", way " << int(dir);
      EXPECT_EQ(dq.levels(), q.levels()) << spec << ", way " << int(dir);
      if (dir == ops::Direction::kAuto && std::string(spec) == "kron:12") {
        EXPECT_GT(pulls, 0);
      }
    }
  }
}

}  // namespace
}  // namespace chatty
