// Similarity on one GPU device: the given pairs, or every edge (u < v, in
// UpperEdges' order), this rank's every ranks-th one, a thread a pair
// counting common neighbours by ops::count_common (merge, or search where
// one list is much the shorter), scored by similarity::score as the host
// does, so bit for bit the same. The K most similar vertices (--top_k):
// this rank's every ranks-th query vertex, in batches of two-hop lists
// gathered, sorted per vertex and read for their runs (top_k.h).
#include <algorithm>
#include <memory>
#include <vector>

#include "apps/gpu_run.cuh"
#include "apps/similarity/app.h"
#include "apps/similarity/top_k.h"
#include "runtime/base/operators.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/operators.cuh"
#include "runtime/cuda/row_devices.cuh"
#include "runtime/graph/upper_edges.h"

namespace chatty {

namespace {

struct SimilarityDevice {
  cuda::Stream stream;
  cuda::DeviceCsr graph;
  cuda::DeviceArray<vid_t> ends;  // pair i: ends[2i], ends[2i + 1]
  cuda::DeviceArray<double> scores;
  cuda::OpStream ops{nullptr, 1};
};

struct ScorePair {
  const eid_t* offsets;
  const vid_t* targets;
  const vid_t* ends;
  double* scores;
  Similarity measure;
  CHATTY_HD void operator()(size_t i) const {
    const vid_t u = ends[2 * i], v = ends[2 * i + 1];
    const size_t du = offsets[u + 1] - offsets[u], dv = offsets[v + 1] - offsets[v];
    const ops::Common k = ops::count_common(targets + offsets[u], du, targets + offsets[v], dv);
    scores[i] = similarity::score(measure, k.count, du, dv);
  }
};

// A batch of --top_k's query vertices holds at most this many two-hop
// entries (a vertex with more is a batch alone): 1.5 GiB of its arrays.
constexpr uint64_t kBatchEntries = uint64_t(1) << 26;

struct TopKDevice {
  cuda::Stream stream;
  cuda::DeviceCsr graph;
  cuda::DeviceArray<vid_t> via, source, query, gathered, sorted;
  cuda::DeviceArray<uint64_t> hop_at, at;
  cuda::DeviceArray<double> slots;
  cuda::DeviceArray<uint8_t> sort_room;
  cuda::OpStream ops{nullptr, 1};
};

// One batch's lists on the host: its hops (source, via, first entry) and
// each query vertex's first entry, both closed by the entries' count.
struct TopKBatch {
  std::vector<vid_t> via, source, query;
  std::vector<uint64_t> hop_at, at;
  void make(const Csr& c, const std::vector<vid_t>& vertices, size_t first, size_t last) {
    via.clear(), source.clear(), query.clear(), hop_at.clear(), at.clear();
    uint64_t entries = 0;
    for (size_t j = first; j < last; ++j) {
      const vid_t s = vertices[j];
      query.push_back(s), at.push_back(entries);
      for (eid_t e = c.offsets[s]; e < c.offsets[s + 1]; ++e) {
        const vid_t v = c.targets[e];
        via.push_back(v), source.push_back(s), hop_at.push_back(entries);
        entries += c.offsets[v + 1] - c.offsets[v];
      }
    }
    at.push_back(entries), hop_at.push_back(entries);
  }
  uint64_t entries() const { return at.back(); }
};

template <typename T>
void to_device(const cuda::DeviceArray<T>& to, const std::vector<T>& from, cudaStream_t stream) {
  if (!from.empty())
    CHATTY_CUDA(cudaMemcpyAsync(to.get(), from.data(), from.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
}

OperatorRun<double> top_k_on_gpu(const Csr& c, Similarity measure, const PairQuery& q, cuda::GpuOperators& d) {
  const vid_t n = c.num_vertices();
  const size_t items = q.of.empty() ? n : q.of.size();
  const uint32_t k = q.top_k;
  const WorkShare& share = d.share();
  std::vector<size_t> mine;  // this rank's query vertices: every ranks-th
  std::vector<vid_t> vertices;
  for (size_t i = size_t(share.rank); i < items; i += size_t(share.ranks))
    mine.push_back(i), vertices.push_back(q.of.empty() ? vid_t(i) : q.of[i]);
  if (mine.empty()) return nothing_here<double>(items * 2 * k, "none (this rank has no vertex to score)");
  OperatorRun<double> r;
  r.values.assign(items * 2 * k, 0.0);
  // Batches [cut[b], cut[b + 1]) of `vertices`, and the largest's sizes.
  std::vector<size_t> cut{0};
  uint64_t widest = 0, hops = 0, room = 0, batch_hops = 0;
  size_t most = 0;
  for (size_t j = 0; j < vertices.size(); ++j) {
    const vid_t s = vertices[j];
    uint64_t t = 0;
    for (eid_t e = c.offsets[s]; e < c.offsets[s + 1]; ++e) t += c.offsets[c.targets[e] + 1] - c.offsets[c.targets[e]];
    if (j > cut.back() && room + t > kBatchEntries) {
      widest = std::max(widest, room), hops = std::max(hops, batch_hops), most = std::max(most, j - cut.back());
      cut.push_back(j), room = 0, batch_hops = 0;
    }
    room += t, batch_hops += c.offsets[s + 1] - c.offsets[s];
  }
  widest = std::max(widest, room), hops = std::max(hops, batch_hops),
  most = std::max(most, vertices.size() - cut.back());
  cut.push_back(vertices.size());
  const uint64_t structure = (uint64_t(n) + 1) * sizeof(eid_t) + c.num_edges() * sizeof(vid_t);
  const uint64_t bytes = structure + widest * 3 * sizeof(vid_t) + hops * (2 * sizeof(vid_t) + sizeof(uint64_t)) +
                         most * (sizeof(vid_t) + sizeof(uint64_t) + 2 * k * sizeof(double)) + (64u << 20);
  const cuda::RowDevices& rd = d.place(1, bytes, "similarity --top_k");
  cuda::DeviceSet<TopKDevice> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<TopKDevice>();
    x->ops = {x->stream.get(), rd.multiprocessors[size_t(dv)]};
    x->graph.upload(c, x->stream.get());
    x->via.allocate(hops + 1), x->source.allocate(hops + 1), x->hop_at.allocate(hops + 1);
    x->gathered.allocate(widest + 1), x->sorted.allocate(widest + 1);
    x->query.allocate(most), x->at.allocate(most + 1), x->slots.allocate(most * 2 * k);
    x->stream.sync();
    return x;
  });
  const double run_seconds = dev.run([&](int, TopKDevice& x) {
    const cuda::OpStream& s = x.ops;
    TopKBatch b;
    std::vector<double> slots;
    for (size_t i = 0; i + 1 < cut.size(); ++i) {
      b.make(c, vertices, cut[i], cut[i + 1]);
      const size_t count = b.query.size();
      to_device(x.via, b.via, s.stream), to_device(x.source, b.source, s.stream);
      to_device(x.hop_at, b.hop_at, s.stream), to_device(x.query, b.query, s.stream), to_device(x.at, b.at, s.stream);
      cuda::compute(s, 0, b.entries(),
                    similarity::GatherTwoHops{x.graph.offsets.get(), x.graph.targets.get(), x.via.get(), x.source.get(),
                                              x.hop_at.get(), b.via.size(), x.gathered.get()});
      cuda::sort_segments(s, x.gathered.get(), x.sorted.get(), b.entries(), count, x.at.get(), x.sort_room);
      cuda::compute(s, 0, count,
                    similarity::BestK{x.graph.offsets.get(), x.query.get(), x.at.get(), x.sorted.get(), measure, k,
                                      x.slots.get()});
      slots.resize(count * 2 * k);
      CHATTY_CUDA(cudaMemcpyAsync(slots.data(), x.slots.get(), slots.size() * sizeof(double), cudaMemcpyDeviceToHost,
                                  s.stream));
      x.stream.sync();
      for (size_t j = 0; j < count; ++j)
        std::copy_n(slots.data() + j * 2 * k, 2 * k, r.values.data() + mine[cut[i] + j] * 2 * k);
    }
  });
  dev.release();
  dev.record(r, run_seconds, "none (one GPU device holds the graph; query vertices in batches of two-hop lists)",
             structure);
  return r;
}

}  // namespace

OperatorRun<double> SimilarityProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  const Csr& c = g.out();
  if (query && query->top_k) return top_k_on_gpu(c, measure, *query, d);
  const std::vector<VertexPair> all = query && !query->pairs.empty() ? query->pairs : upper_pairs(c, upper_edges(c));
  const WorkShare& share = d.share();
  std::vector<vid_t> ends;  // this rank's pairs: every ranks-th
  std::vector<size_t> at;
  for (size_t i = size_t(share.rank); i < all.size(); i += size_t(share.ranks)) {
    ends.push_back(all[i].first), ends.push_back(all[i].second);
    at.push_back(i);
  }
  if (at.empty()) return nothing_here<double>(all.size(), "none (this rank scores no pair)");
  OperatorRun<double> r;
  r.values.assign(all.size(), 0.0);
  const uint64_t structure = (uint64_t(c.num_vertices()) + 1) * sizeof(eid_t) + c.num_edges() * sizeof(vid_t);
  const uint64_t bytes = structure + at.size() * (2 * sizeof(vid_t) + sizeof(double)) + (64u << 20);
  const cuda::RowDevices& rd = d.place(1, bytes, "similarity");
  cuda::DeviceSet<SimilarityDevice> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<SimilarityDevice>();
    x->ops = {x->stream.get(), rd.multiprocessors[size_t(dv)]};
    x->graph.upload(c, x->stream.get());
    x->ends.allocate(ends.size());
    x->scores.allocate(at.size());
    cuda::Uploader up(x->stream.get());
    up.copy(x->ends.get(), ends.data(), ends.size() * sizeof(vid_t));
    x->stream.sync();
    return x;
  });
  std::vector<double> scores(at.size(), 0.0);
  const double run_seconds = dev.run([&](int, SimilarityDevice& x) {
    cuda::compute(x.ops, 0, at.size(),
                  ScorePair{x.graph.offsets.get(), x.graph.targets.get(), x.ends.get(), x.scores.get(), measure});
    x.stream.sync();
  });
  dev.sum_into(scores, at.size(), [](SimilarityDevice& x) { return x.scores.get(); });  // one device: its scores
  dev.release();
  for (size_t i = 0; i < at.size(); ++i) r.values[at[i]] = scores[i];
  dev.record(r, run_seconds, "none (one GPU device holds the graph; a thread a pair)", structure);
  return r;
}

void run_similarity_gpu(const AppRun& r, AppOutput& out) {
  const PairQuery every_edge;
  const PairQuery& q = r.query ? *r.query : every_edge;
  take_similarity(r, q, run_on_gpus(r, SimilarityProgram{r.opt.similarity, &q}, out), out);
}

}  // namespace chatty
