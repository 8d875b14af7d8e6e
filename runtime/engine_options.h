// Knobs of the engine, each with a default a user can override from the
// command line (policy kept apart from the kernels that obey it).
#pragma once

#include <cstdint>
#include <string>

namespace chatty {

enum class Direction { kAuto, kPush, kPull };

struct EngineOptions {
  int threads = 0;  // 0: all cores
  Direction direction = Direction::kAuto;
  // Direction-optimizing switch (Beamer et al.): go pull when the frontier's
  // out-edges exceed unexplored edges / alpha; back to push when the frontier
  // shrinks below |V| / beta.
  double alpha = 15.0, beta = 18.0;
  uint64_t delta = 0;       // SSSP bucket width; 0: chosen from the graph
  double tolerance = 1e-6;  // PageRank: stop when L1 change < tolerance
  int max_iters = 100;      // PageRank
  double damping = 0.85;
  bool union_find = true;  // WCC: link with union-find (else label propagation)
  int devices = 1;         // host devices; the machine's threads are split between them
  bool numa = false;       // bind device d to NUMA node d % nodes (libnuma)
  bool migrate = true;     // host devices: an idle device computes blocks of a busy one (work migration)
  std::string comm =
      "auto";  // exchange transport: auto, host, host_read, host_view (host devices); uva, p2p, nccl (GPUs)
  std::string backend = "cpu";  // resolved backend: cpu or cuda
  std::string gpu_lb = "twc";   // GPU push load balance: twc (thread/warp/block by degree) or lb (edge-balanced)
};

Direction parse_direction(const std::string& s);
const char* direction_name(Direction d);

}  // namespace chatty
