#include "runtime/base/cache_dir.h"

#include <cstdlib>
#include <filesystem>

namespace chatty {

std::string cache_file(const std::string& name) {
  std::filesystem::path base;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    base = x;
  else if (const char* h = std::getenv("HOME"); h && *h)
    base = std::filesystem::path(h) / ".cache";
  else
    base = std::filesystem::temp_directory_path();
  return (base / "chattygraph" / name).string();
}

}  // namespace chatty
