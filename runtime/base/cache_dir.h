// Where ChattyGraph keeps what it measured about the machine it runs on
// (the topology's link costs, the cluster's small/large switch point), so
// that later runs read it instead of measuring again.
#pragma once

#include <string>

namespace chatty {

// $XDG_CACHE_HOME/chattygraph/NAME, else ~/.cache/chattygraph/NAME, else
// under the temporary directory.
std::string cache_file(const std::string& name);

}  // namespace chatty
