// A host device's mechanisms for the ordered driver
// (runtime/drivers/ordered.h): its pending owned vertices in bins by
// bucket, and the push step over a bucket's live entries.
#pragma once

#include <algorithm>
#include <vector>

#include "runtime/device_context.h"
#include "runtime/drivers/agreed.h"
#include "runtime/graph.h"
#include "runtime/host/traversal_ops.h"
#include "runtime/migrating_push.h"

namespace chatty::host {

template <typename P>
class OrderedOps {
 public:
  using V = typename P::Value;
  OrderedOps(DeviceContext<V>& c, const Graph& g, const P& prog, uint64_t delta, PushBoard<V>& board)
      : c_(c),
        g_(g),
        prog_(prog),
        delta_(delta),
        frontier_(g.num_vertices()),
        changed_(g.num_vertices()),
        claimed_(g.num_vertices()),
        board_(board) {}

  void start(const std::vector<vid_t>& s) {
    for (vid_t v : s)
      if (c_.owns(v)) put(v);
  }

  void merge(int parity) {
    mine_ = DeviceStatus{};
    c_.merge(
        parity, [](V a, V b) { return P::reduce(a, b); },
        [&](vid_t v) {
          if (c_.owns(v)) put(v), ++mine_.updated;
        });
  }

  void relax(uint64_t bucket) {
    constexpr size_t kAhead = DeviceContext<V>::kAhead;
    c_.begin(kCompute);
    frontier_.count = 0;
    if (bucket < bins_.size()) {
      const std::vector<vid_t>& bin = bins_[bucket];
      for (size_t i = 0; i < bin.size(); ++i) {  // drop stale and repeated entries
        if (i + kAhead < bin.size()) __builtin_prefetch(&c_.values[bin[i + kAhead]]);
        const vid_t v = bin[i];
        if (bin_of(v) == bucket && c_.marks.test_and_set(v)) frontier_.ids[frontier_.count++] = v;
      }
      bins_[bucket].clear();
      for (size_t i = 0; i < frontier_.count; ++i) c_.marks.reset(frontier_.ids[i]);
    }
    SuperstepStats st;
    multi::push_step(board_, c_.d, g_.out(), prog_, c_.values.data(), frontier_, changed_, claimed_, st,
                     mine_.migrated);
    mine_.edges = st.edges;
    for (size_t i = 0; i < changed_.count; ++i) {
      if (i + kAhead < changed_.count) __builtin_prefetch(&c_.values[changed_.ids[i + kAhead]]);
      const vid_t v = changed_.ids[i];
      mine_.bucket = std::min<uint64_t>(mine_.bucket, bin_of(v));  // receivers will bin remote ones
      if (c_.owns(v)) put(v), ++mine_.updated;
    }
    for (size_t b = bucket; b < bins_.size(); ++b)
      if (!bins_[b].empty()) {
        mine_.bucket = std::min<uint64_t>(mine_.bucket, b);
        break;
      }
    c_.end();
  }

  void compact(int) { c_.compact(changed_.ids.data(), changed_.count); }

  Agreed sync(int parity) { return Agreed{c_.sync(parity, mine_)}; }

 private:
  size_t bin_of(vid_t v) const { return size_t(prog_.priority(c_.values[v]) / delta_); }
  void put(vid_t v) {
    const size_t b = bin_of(v);
    if (b >= bins_.size()) bins_.resize(b + 1);
    bins_[b].push_back(v);
  }

  DeviceContext<V>& c_;
  const Graph& g_;
  const P& prog_;
  const uint64_t delta_;
  std::vector<std::vector<vid_t>> bins_;
  Queue frontier_, changed_;
  Bitmap claimed_;
  PushBoard<V>& board_;
  DeviceStatus mine_;
};

}  // namespace chatty::host
