// Writing a file so that it is never left half-written or destroyed: the
// content goes to a temporary file beside the target, renamed over it only
// once complete (a failed or interrupted write leaves the old file as it
// was). A graph mapped from the old file stays valid meanwhile.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "runtime/base/status.h"

namespace chatty {

// Only a plain file (or a path not there yet) is replaced. A device, a
// FIFO or a symbolic link (/dev/null, /dev/stdout, a link into another
// directory) is written in place, through the link: renaming over it
// would put a plain file where the device node or the link was.
template <typename Write>
void write_replacing(const std::string& path, Write write) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    write(path);
    return;
  }
  const std::string tmp = path + ".chatty-tmp-" + std::to_string(::getpid());
  try {
    write(tmp);
  } catch (const Error& e) {
    std::remove(tmp.c_str());
    std::string what = e.what();
    for (size_t at = what.find(tmp); at != std::string::npos; at = what.find(tmp)) what.replace(at, tmp.size(), path);
    throw Error(what);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error(path + ": cannot write (rename of the finished file failed)");
  }
}

}  // namespace chatty
