// A device's rows of edges where a thief on another rank reads them: in
// the device's exposed region, with offsets from 0. Both remote families
// (runtime/host/remote_gather.h's in-edges, remote_push.h's out-edges)
// lay them out this way.
#pragma once

#include <cstddef>
#include <cstring>

#include "runtime/graph/graph_chunk.h"

namespace chatty::host {

// The owner, before its run: faults in the first `header_bytes` of its
// region (everything before the targets: headers and per-vertex arrays)
// and writes the rows of `rows` there - offsets from 0 at `offsets_at`,
// targets at `targets_at`, and weights at `weights_at` when that is not 0
// and the rows have them - as a NIC's memory registration would at load time.
inline void expose_rows(std::byte* region, size_t header_bytes, const CsrChunk& rows, size_t offsets_at,
                        size_t targets_at, size_t weights_at = 0) {
  std::memset(region, 0, header_bytes);
  const vid_t count = rows.hi - rows.lo;
  auto* offsets = reinterpret_cast<eid_t*>(region + offsets_at);
  const eid_t first = count ? rows.begin(rows.lo) : 0;
  for (vid_t i = 0; i <= count && rows.offsets; ++i) offsets[i] = rows.offsets[i] - first;
  if (!rows.offsets) offsets[0] = 0;
  const eid_t m = rows.num_edges();
  if (m) std::memcpy(region + targets_at, rows.targets + first, size_t(m) * sizeof(vid_t));
  if (m && weights_at && rows.weights)
    std::memcpy(region + weights_at, rows.weights + first, size_t(m) * sizeof(weight_t));
}

}  // namespace chatty::host
