// Link benchmarks (the ChattyGraph paper's table 2 and figure 4): for every GPU, pinned
// host copies and zero-copy reads of mapped host memory; for every pair
// with peer access, cuMemcpyPeerAsync; and an NCCL broadcast over all GPUs.
// Each size is timed three times and the fastest kept; a cost is fitted as
// latency = time of the smallest message and bandwidth from the largest.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "runtime/base/status.h"
#include "topology/cuda_driver.h"
#include "topology/probe.h"

namespace chatty::topo {
namespace {

constexpr uint64_t kSizes[] = {4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20};
constexpr size_t kMax = 64 << 20;
constexpr int kReps = 3;

struct Dev {
  cu::Context ctx = nullptr;
  cu::Stream stream = nullptr;
  cu::Event start = nullptr, stop = nullptr;
  cu::DevicePtr a = 0, b = 0;
};

void fit(Cost& c) {
  if (c.samples.size() < 2) return;
  const auto [small_bytes, small_us] = c.samples.front();
  const auto [big_bytes, big_us] = c.samples.back();
  c.latency_us = small_us;
  c.bandwidth_gbps = double(big_bytes - small_bytes) / std::max(1e-3, big_us - small_us) / 1e3;
}

// Times `op` on dev's stream with events; returns the fastest of kReps in us.
template <typename Op>
double timed(const cu::Api& api, Dev& d, Op op) {
  double best = 1e30;
  for (int r = 0; r < kReps; ++r) {
    cu::check(api, api.cuEventRecord(d.start, d.stream), "cuEventRecord");
    op();
    cu::check(api, api.cuEventRecord(d.stop, d.stream), "cuEventRecord");
    cu::check(api, api.cuEventSynchronize(d.stop), "cuEventSynchronize");
    float ms = 0;
    cu::check(api, api.cuEventElapsedTime(&ms, d.start, d.stop), "cuEventElapsedTime");
    best = std::min(best, double(ms) * 1e3);
  }
  return best;
}

// NCCL broadcast over all GPUs, opened at run time (libnccl.so.2).
void bench_nccl(const cu::Api& api, Topology& t, std::vector<Dev>& devs, bool verbose) {
  void* lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!lib || t.size() < 2) {
    if (verbose)
      std::fprintf(stderr, "topo: NCCL broadcast skipped (%s)\n", lib ? "one GPU" : "libnccl.so.2 not found");
    return;
  }
  using Comm = struct ncclComm*;
  auto init_all = reinterpret_cast<int (*)(Comm*, int, const int*)>(dlsym(lib, "ncclCommInitAll"));
  auto bcast =
      reinterpret_cast<int (*)(const void*, void*, size_t, int, int, Comm, cu::Stream)>(dlsym(lib, "ncclBroadcast"));
  auto group_start = reinterpret_cast<int (*)()>(dlsym(lib, "ncclGroupStart"));
  auto group_end = reinterpret_cast<int (*)()>(dlsym(lib, "ncclGroupEnd"));
  auto destroy = reinterpret_cast<int (*)(Comm)>(dlsym(lib, "ncclCommDestroy"));
  CHATTY_CHECK(init_all && bcast && group_start && group_end && destroy, "libnccl.so.2 lacks the broadcast API");
  std::vector<Comm> comms(size_t(t.size()));
  std::vector<int> ids(size_t(t.size()));
  for (int i = 0; i < t.size(); ++i) ids[size_t(i)] = i;
  CHATTY_CHECK(init_all(comms.data(), t.size(), ids.data()) == 0, "ncclCommInitAll failed");
  for (uint64_t bytes : kSizes) {
    double best = 1e30;
    for (int r = 0; r < kReps; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      CHATTY_CHECK(group_start() == 0, "ncclGroupStart failed");
      for (int i = 0; i < t.size(); ++i) {
        cu::check(api, api.cuCtxSetCurrent(devs[size_t(i)].ctx), "cuCtxSetCurrent");
        Dev& d = devs[size_t(i)];
        CHATTY_CHECK(bcast(reinterpret_cast<void*>(d.a), reinterpret_cast<void*>(d.b), bytes, /*ncclInt8*/ 0, 0,
                           comms[size_t(i)], d.stream) == 0,
                     "ncclBroadcast failed");
      }
      CHATTY_CHECK(group_end() == 0, "ncclGroupEnd failed");
      for (Dev& d : devs) cu::check(api, api.cuStreamSynchronize(d.stream), "cuStreamSynchronize");
      best = std::min(best, std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    t.nccl.samples.push_back({bytes, best});
  }
  fit(t.nccl);
  for (Comm c : comms) destroy(c);
}

}  // namespace

void run_link_benchmarks(Topology& t, bool verbose) {
  std::string why;
  const cu::Api* api = cu::load(&why);
  CHATTY_CHECK(api && t.size() > 0, "--bench needs a GPU: " + (why.empty() ? t.note : why));
  const cu::Api& A = *api;
  std::vector<Dev> devs(size_t(t.size()));
  for (int i = 0; i < t.size(); ++i) {
    Dev& d = devs[size_t(i)];
    cu::check(A, A.cuDevicePrimaryCtxRetain(&d.ctx, i), "cuDevicePrimaryCtxRetain");
    cu::check(A, A.cuCtxSetCurrent(d.ctx), "cuCtxSetCurrent");
    cu::check(A, A.cuStreamCreate(&d.stream, 1), "cuStreamCreate");
    cu::check(A, A.cuEventCreate(&d.start, 0), "cuEventCreate");
    cu::check(A, A.cuEventCreate(&d.stop, 0), "cuEventCreate");
    cu::check(A, A.cuMemAlloc_v2(&d.a, kMax), "cuMemAlloc (64 MB per GPU)");
    cu::check(A, A.cuMemAlloc_v2(&d.b, kMax), "cuMemAlloc (64 MB per GPU)");
  }
  // The driver API allocates pinned memory in the current context: portable
  // makes it usable from every GPU's, but one must be current first.
  void* host = nullptr;
  void* mapped = nullptr;
  cu::check(A, A.cuCtxSetCurrent(devs[0].ctx), "cuCtxSetCurrent");
  cu::check(A, A.cuMemHostAlloc(&host, kMax, cu::kHostAllocPortable), "cuMemHostAlloc");
  cu::check(A, A.cuMemHostAlloc(&mapped, kMax, cu::kHostAllocPortable | cu::kHostAllocDeviceMap), "cuMemHostAlloc");
  for (int i = 0; i < t.size(); ++i) {
    Dev& d = devs[size_t(i)];
    Gpu& g = t.gpus[size_t(i)];
    cu::check(A, A.cuCtxSetCurrent(d.ctx), "cuCtxSetCurrent");
    cu::DevicePtr mapped_dev = 0;
    cu::check(A, A.cuMemHostGetDevicePointer_v2(&mapped_dev, mapped, 0), "cuMemHostGetDevicePointer");
    g.host_copy = Cost{}, g.zero_copy = Cost{};
    for (uint64_t bytes : kSizes) {
      g.host_copy.samples.push_back({bytes, timed(A, d, [&] { A.cuMemcpyHtoDAsync_v2(d.a, host, bytes, d.stream); })});
      g.zero_copy.samples.push_back(
          {bytes, timed(A, d, [&] { A.cuMemcpyDtoDAsync_v2(d.a, mapped_dev, bytes, d.stream); })});
    }
    fit(g.host_copy);
    fit(g.zero_copy);
    for (int j = 0; j < t.size(); ++j) {
      Link& l = t.link(i, j);
      if (i == j || !l.peer_access) continue;
      const int r = A.cuCtxEnablePeerAccess(devs[size_t(j)].ctx, 0);
      if (r != 0 && r != 704 /* CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED */) cu::check(A, r, "cuCtxEnablePeerAccess");
      l.p2p = Cost{};
      for (uint64_t bytes : kSizes)
        l.p2p.samples.push_back({bytes, timed(A, d, [&] {
                                   A.cuMemcpyPeerAsync(devs[size_t(j)].b, devs[size_t(j)].ctx, d.a, d.ctx, bytes,
                                                       d.stream);
                                 })});
      fit(l.p2p);
    }
    if (verbose) std::fprintf(stderr, "topo: measured GPU %d\n", i);
  }
  bench_nccl(A, t, devs, verbose);
  for (int i = 0; i < t.size(); ++i) {
    Dev& d = devs[size_t(i)];
    A.cuCtxSetCurrent(d.ctx);
    A.cuMemFree_v2(d.a);
    A.cuMemFree_v2(d.b);
    A.cuEventDestroy_v2(d.start);
    A.cuEventDestroy_v2(d.stop);
    A.cuStreamDestroy_v2(d.stream);
  }
  A.cuMemFreeHost(host);
  A.cuMemFreeHost(mapped);
  for (int i = 0; i < t.size(); ++i) A.cuDevicePrimaryCtxRelease_v2(i);
  t.source = "probe+bench";
}

}  // namespace chatty::topo
