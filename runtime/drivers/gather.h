// The gather driver (PageRank, k-core, Katz, eigenvector): Jacobi
// supersteps, one loop for every backend and device count. The program's
// sink (PageRank: the values of vertices without out-edges) and the change
// of the values are summed over devices
// as status data; the program decides from the change when it has
// converged. A device's gather ops `Ops` provide:
//   double start();              // first published values; returns the sink mass
//   void merge(int parity);      // peers' published values of their boundary vertices
//   void gather(double sink);    // new values of the owned vertices
//   void compact(int parity);    // owned boundary vertices' published values
//   Agreed sync(int parity, bool pull);  // a gather's supersteps are pull steps
#pragma once

#include "runtime/drivers/agreed.h"

namespace chatty {

inline constexpr StatusSlot<double> kL1Slot{0, Fold::kSum};        // change of the owned values
inline constexpr StatusSlot<double> kDanglingSlot{1, Fold::kSum};  // mass of owned vertices without out-edges

// How a gather ended: converged, or stopped by max_iters with the last
// superstep's change (the same on every device).
struct GatherEnd {
  bool converged = true;
  double change = 0;
};

template <typename Ops, typename P>
GatherEnd drive_gather(Ops& dev, const P& prog) {
  double dangling = dev.start();
  GatherEnd end;
  for (int k = 0; k < prog.max_iters; ++k) {
    const int parity = k & 1;
    dev.merge(parity);
    dev.gather(dangling);
    dev.compact(parity);
    const Agreed a = dev.sync(parity, /*pull=*/true);
    if (a.failed()) return end;  // the failure is reported, not a convergence
    dangling = a.fold(kDanglingSlot);
    end.change = a.fold(kL1Slot);
    if (prog.converged(end.change, dangling)) return end;
  }
  end.converged = false;
  return end;
}

}  // namespace chatty
