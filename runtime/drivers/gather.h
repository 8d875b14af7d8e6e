// The gather driver (PageRank): Jacobi supersteps, one loop for every
// backend and device count. The dangling mass and the L1 change are
// summed over devices as status data; the run stops when the change is
// below the tolerance. A device's gather ops `Ops` provide:
//   double start();              // first contributions; returns the dangling mass
//   void merge(int parity);      // peers' contributions of their boundary vertices
//   void gather(double dangling);// new values of the owned vertices
//   void compact(int parity);    // owned boundary vertices' contributions
//   Agreed sync(int parity);
#pragma once

#include "runtime/drivers/agreed.h"
#include "runtime/engine_options.h"

namespace chatty {

inline constexpr StatusSlot<double> kL1Slot{0, Fold::kSum};        // change of the owned values
inline constexpr StatusSlot<double> kDanglingSlot{1, Fold::kSum};  // mass of owned vertices without out-edges

template <typename Ops>
void drive_gather(Ops& dev, const EngineOptions& opt) {
  double dangling = dev.start();
  for (int k = 0; k < opt.max_iters; ++k) {
    const int parity = k & 1;
    dev.merge(parity);
    dev.gather(dangling);
    dev.compact(parity);
    const Agreed a = dev.sync(parity);
    if (a.failed()) return;
    dangling = a.fold(kDanglingSlot);
    if (a.fold(kL1Slot) < opt.tolerance) return;
  }
}

}  // namespace chatty
