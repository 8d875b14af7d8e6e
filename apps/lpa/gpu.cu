// Label propagation on one GPU device: rank 0's first device runs
// semi_sync.h's sweeps, colour class after colour class. A class's rows'
// labels are gathered edge by edge, each row's sorted in place (one
// segmented sort), and a thread per vertex reads its sorted row's runs for
// the most frequent labels, with the host's tie rule: the same labels as
// the host, exactly. The colouring is the host's (sequential, as greedy
// colouring is) and counts in the run's time; any other device or rank
// adds zeros.
#include <omp.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "apps/gpu_run.cuh"
#include "apps/lpa/app.h"
#include "apps/lpa/semi_sync.h"
#include "runtime/base/interrupt.h"
#include "runtime/cuda/gpu_operators.cuh"
#include "runtime/cuda/operators.cuh"
#include "runtime/cuda/row_devices.cuh"

namespace chatty {

namespace {

// The classes in one list, `members`; class c's members [first[c],
// first[c + 1]), their rows' entries at row[i + c] .. row[i + c + 1] of
// the class's own numbering (each class restarts at 0, so that one buffer
// the size of the largest class holds any class's rows).
struct Classes {
  std::vector<vid_t> members;
  std::vector<uint64_t> first, row;
  uint64_t widest = 0;  // the most row entries of a class
};

Classes list_classes(const Csr& c, const std::vector<std::vector<vid_t>>& classes) {
  Classes k;
  k.first.push_back(0);
  for (const std::vector<vid_t>& members : classes) {
    uint64_t at = 0;
    for (vid_t v : members) {
      k.members.push_back(v);
      k.row.push_back(at);
      at += c.degree(v);
    }
    k.row.push_back(at);
    k.first.push_back(k.members.size());
    k.widest = std::max(k.widest, at);
  }
  return k;
}

struct LpaDevice {
  cuda::Stream stream;
  cuda::DeviceCsr graph;
  cuda::DeviceArray<vid_t> members;
  cuda::DeviceArray<uint64_t> row;
  cuda::DeviceArray<uint32_t> label, gathered, sorted, changed;
  cuda::DeviceArray<uint8_t> sort_room;
  cuda::OpStream ops{nullptr, 1};
};

struct Own {
  uint32_t* label;
  CHATTY_HD void operator()(size_t v) const { label[v] = uint32_t(v); }
};

// Entry j of a class's rows: the label of the row's j-th neighbour, found
// by a binary search for its member in the class's row starts.
struct GatherLabels {
  const vid_t* members;  // the class's
  const uint64_t* row;   // its row starts, members + 1 of them
  uint64_t count;        // its members
  const eid_t* offsets;
  const vid_t* targets;
  const uint32_t* label;
  uint32_t* out;
  CHATTY_HD void operator()(size_t j) const {
    const uint64_t lo = ops::segment_of(row, count, j);  // the member whose row holds entry j
    const vid_t v = members[lo];
    out[j] = label[targets[offsets[v] + (j - row[lo])]];
  }
};

// Member i takes the label most frequent in its sorted row: the only one,
// else its own if among them, else the largest of them (semi_sync.h).
struct Decide {
  const vid_t* members;
  const uint64_t* row;
  const uint32_t* sorted;
  uint32_t* label;
  uint32_t* changed;
  CHATTY_HD void operator()(size_t i) const {
    const uint64_t lo = row[i], hi = row[i + 1];
    if (lo == hi) return;
    const vid_t v = members[i];
    const uint32_t own = label[v];
    uint64_t most = 0, tied = 0, own_count = 0;
    uint32_t largest = 0;
    for (uint64_t a = lo; a < hi;) {
      const uint32_t l = sorted[a];
      uint64_t b = a + 1;
      while (b < hi && sorted[b] == l) ++b;
      const uint64_t run = b - a;
      if (run > most)
        most = run, tied = 1, largest = l;
      else if (run == most)
        ++tied, largest = l;  // ascending: a later label is larger
      if (l == own) own_count = run;
      a = b;
    }
    const uint32_t next = tied == 1 || own_count != most ? largest : own;
    if (next == own) return;
    label[v] = next;
    *changed = 1;
  }
};

// Sweeps until one changes no label; returns the sweeps.
int sweeps(LpaDevice& x, const Classes& k) {
  const cuda::OpStream& s = x.ops;
  int done = 0;
  for (bool again = true; again && !interrupt_requested(); ++done) {
    CHATTY_CUDA(cudaMemsetAsync(x.changed.get(), 0, sizeof(uint32_t), s.stream));
    for (size_t cls = 0; cls + 1 < k.first.size(); ++cls) {
      const uint64_t a = k.first[cls], count = k.first[cls + 1] - a;
      const uint64_t* row = x.row.get() + a + cls;
      const uint64_t entries = k.row[a + cls + count];
      const vid_t* members = x.members.get() + a;
      cuda::compute(s, 0, entries,
                    GatherLabels{members, row, count, x.graph.offsets.get(), x.graph.targets.get(), x.label.get(),
                                 x.gathered.get()});
      cuda::sort_segments(s, x.gathered.get(), x.sorted.get(), entries, count, row, x.sort_room);
      cuda::compute(s, 0, count, Decide{members, row, x.sorted.get(), x.label.get(), x.changed.get()});
    }
    uint32_t changed = 0;
    CHATTY_CUDA(cudaMemcpyAsync(&changed, x.changed.get(), sizeof changed, cudaMemcpyDeviceToHost, s.stream));
    x.stream.sync();
    again = changed != 0;
  }
  return done;
}

}  // namespace

OperatorRun<uint64_t> LpaProgram::on_gpus(const Graph& g, cuda::GpuOperators& d) const {
  const Csr& c = g.out();
  const vid_t n = g.num_vertices();
  const eid_t m = c.num_edges();
  if (d.share().rank != 0) return nothing_here<uint64_t>(n, "none (rank 0 computes the communities)");
  OperatorRun<uint64_t> r;
  r.values.assign(n, 0);
  const double t0 = omp_get_wtime();
  const Classes k = list_classes(c, lpa::colour_classes(c));
  const double colour_seconds = omp_get_wtime() - t0;
  const uint64_t structure = (uint64_t(n) + 1) * sizeof(eid_t) + m * sizeof(vid_t);
  const uint64_t bytes = structure + uint64_t(n) * (sizeof(vid_t) + 2 * sizeof(uint64_t) + sizeof(uint32_t)) +
                         2 * k.widest * sizeof(uint32_t) + (64u << 20);
  const cuda::RowDevices& rd = d.place(1, bytes, "lpa");
  cuda::DeviceSet<LpaDevice> dev(rd);
  dev.make([&](int dv) {
    auto x = std::make_unique<LpaDevice>();
    x->ops = {x->stream.get(), rd.multiprocessors[size_t(dv)]};
    x->graph.upload(c, x->stream.get());
    x->members.allocate(std::max<size_t>(k.members.size(), 1));
    x->row.allocate(std::max<size_t>(k.row.size(), 1));
    cuda::Uploader up(x->stream.get());
    up.copy(x->members.get(), k.members.data(), k.members.size() * sizeof(vid_t));
    up.copy(x->row.get(), k.row.data(), k.row.size() * sizeof(uint64_t));
    x->label.allocate(std::max<vid_t>(n, 1));
    x->gathered.allocate(std::max<uint64_t>(k.widest, 1));
    x->sorted.allocate(std::max<uint64_t>(k.widest, 1));
    x->changed.allocate(1);
    cuda::compute(x->ops, 0, n, Own{x->label.get()});
    x->stream.sync();
    return x;
  });
  int done = 0;
  const double run_seconds = dev.run([&](int, LpaDevice& x) {
    done = sweeps(x, k);
    x.stream.sync();
  });
  throw_if_interrupted();
  std::vector<uint32_t> label(n, 0);
  dev.sum_into(label, n, [](LpaDevice& x) { return x.label.get(); });  // one device: its labels
  dev.release();
  r.values.assign(label.begin(), label.end());
  r.edges = m * uint64_t(done);
  dev.record(r, run_seconds + colour_seconds,
             "none (one GPU device holds the graph; the colouring is the host's, in the run's time)", structure);
  return r;
}

void run_lpa_gpu(const AppRun& r, AppOutput& out) {
  const std::vector<uint64_t> label = run_on_gpus(r, LpaProgram{}, out);
  out.ints.assign(label.begin(), label.end());
}

}  // namespace chatty
