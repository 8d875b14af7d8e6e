// `chatty topo`: the link matrix in the spirit of `nvidia-smi topo -m`, the
// measured (or specified) link figures, and the transport the policy picks
// per data class and size band, with its reason.
#pragma once

#include <string>
#include <vector>

#include "topology/model.h"

namespace chatty::topo {

// `devices`: runtime device -> GPU (empty: every GPU once).
std::string render_text(const Topology& t, std::vector<int> devices);
std::string render_json(const Topology& t, std::vector<int> devices);

}  // namespace chatty::topo
