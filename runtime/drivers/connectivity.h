// The union-find connectivity driver (WCC by Afforest, Sutton et al.,
// IPDPS 2018, across devices): four supersteps on every backend and device
// count. Each device keeps a union-find forest over its replica of the
// labels. Linking hangs the larger root under the smaller, so a forest
// that holds every union touching a component has the component's minimum
// as the root of all its vertices, whatever order the unions came in;
// the exchange only has to give every device the unions that concern the
// vertices it holds in a tree, once.
//   0: link a two-neighbour sample; describe, for every boundary vertex
//      that is no longer a root, the root it hangs under
//   1: take in the peers' descriptions; vote for the giant component from
//      samples of owned roots (status slots); all elect the same one
//   2: link the other edges of owned vertices outside the giant; send the
//      roots of shared vertices (boundary vertices and roots ever sent)
//      that moved
//   3: take them in; the owned labels are final after a compression.
// A device's connectivity ops `Ops` provide:
//   void merge(int stage, int parity);  // link what peers sent in the stage before
//   void link_sample();                 // stage 0
//   void vote();                        // stage 1: the giant slots of its status
//   void link_rest(vid_t giant);        // stage 2 (`none`: link every edge)
//   void describe(int parity);          // stage 0's compaction
//   void send_moved(int parity);        // the other stages' compaction
//   Agreed sync(int parity);
//   void finish();                      // owned labels point at their roots
#pragma once

#include "runtime/drivers/agreed.h"
#include "runtime/engine/superstep_decisions.h"

namespace chatty {

template <typename Ops>
void drive_connectivity(Ops& dev, vid_t none) {
  vid_t giant = none;
  for (int stage = 0; stage < 4; ++stage) {
    const int parity = stage & 1;
    dev.merge(stage, parity);
    if (stage == 0)
      dev.link_sample();
    else if (stage == 1)
      dev.vote();
    else if (stage == 2)
      dev.link_rest(giant);
    if (stage == 0)
      dev.describe(parity);
    else
      dev.send_moved(parity);
    const Agreed a = dev.sync(parity);
    if (a.failed()) return;
    if (stage == 1) giant = elect_giant(a.all, none);
  }
  dev.finish();
}

}  // namespace chatty
