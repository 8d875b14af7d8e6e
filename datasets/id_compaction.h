// Numbers the ids that occur in an edge list 0..n-1 in ascending order
// (the input's ids of an "occurring" graph, runtime/graph/vertex_ids.h).
#pragma once

#include <cstdint>
#include <vector>

#include "datasets/text_parse.h"

namespace chatty {

// Fills `out` (one list per input list, weights moved along) with the
// compacted ids of `wide`, which it empties; `max_id` is its largest id
// (the parse has it); returns the ids, ascending:
// vertex v is the input's id result[v]. Ids that lie within a small factor
// of the edge count are ranked through a bitmap; others are sorted and
// found through a hash table.
std::vector<uint64_t> compact_ids(std::vector<WideEdgeList>& wide, uint64_t max_id, std::vector<EdgeList>& out);

}  // namespace chatty
