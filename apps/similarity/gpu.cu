// Similarity on one GPU device: the given pairs, or every edge (u < v, in
// UpperEdges' order), this rank's every ranks-th one, a thread a pair
// counting common neighbours by ops::count_common (merge, or search where
// one list is much the shorter), scored by similarity::score as the host
// does, so bit for bit the same. The K most similar vertices (--top_k) run
// on the CPU backend.
#include <memory>
#include <vector>

#include "apps/gpu_run.cuh"
#include "apps/similarity/app.h"
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

}  // namespace

OperatorRun<double> SimilarityProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  CHATTY_CHECK(!(query && query->top_k),
               "similarity --top_k runs on the CPU backend (--backend=cpu); on GPU devices: --pairs or every edge");
  const Csr& c = g.out();
  const std::vector<VertexPair> all = query && !query->pairs.empty() ? query->pairs : upper_pairs(c, upper_edges(c));
  const WorkShare& share = d.share();
  std::vector<vid_t> ends;  // this rank's pairs: every ranks-th
  std::vector<size_t> at;
  for (size_t i = size_t(share.rank); i < all.size(); i += size_t(share.ranks)) {
    ends.push_back(all[i].first), ends.push_back(all[i].second);
    at.push_back(i);
  }
  OperatorRun<double> r;
  r.values.assign(all.size(), 0.0);
  if (at.empty()) {
    r.device_seconds = {0.0};
    r.how = "none (this rank scores no pair)";
    return r;
  }
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
