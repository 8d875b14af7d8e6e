// Refusing work that cannot fit in memory before allocating it.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "runtime/base/status.h"

namespace chatty {

// Bytes the kernel says can be allocated without swapping (MemAvailable),
// or physical memory when /proc/meminfo is unreadable.
inline uint64_t available_memory() {
  std::ifstream f("/proc/meminfo");
  for (std::string key; f >> key;) {
    uint64_t kb = 0;
    f >> kb;
    if (key == "MemAvailable:") return kb * 1024;
    f.ignore(256, '\n');
  }
  return uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
}

// Throws chatty::Error("<what> needs X GiB, Y GiB available") when the
// estimate exceeds what is available.
inline void check_memory(uint64_t bytes, const std::string& what) {
  const uint64_t avail = available_memory();
  if (bytes <= avail) return;
  char buf[128];
  std::snprintf(buf, sizeof buf, " needs %.1f GiB of memory, %.1f GiB available", double(bytes) / (1 << 30),
                double(avail) / (1 << 30));
  throw Error(what + buf);
}

}  // namespace chatty
