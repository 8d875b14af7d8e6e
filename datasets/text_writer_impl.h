#pragma once

#include <omp.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "runtime/base/status.h"

namespace chatty {

template <typename LineFn>
void write_text_graph(const Graph& g, const std::string& path, const std::string& header, LineFn line) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw Error(path + ": cannot write: " + std::strerror(errno));
  bool ok = std::fwrite(header.data(), 1, header.size(), f) == header.size();
  const Csr& csr = g.out();
  const vid_t n = csr.num_vertices();
  const bool weighted = g.weighted();
  // Blocks of vertices, formatted in parallel, written in order.
  const vid_t block = 1 << 16;
  std::vector<std::string> bufs{size_t(omp_get_max_threads())};
  for (vid_t lo = 0; ok && lo < n; lo += block * vid_t(bufs.size())) {
#pragma omp parallel num_threads(int(bufs.size()))
    {
      int t = omp_get_thread_num();
      std::string& s = bufs[size_t(t)];
      s.clear();
      uint64_t b = uint64_t(lo) + uint64_t(t) * block;
      uint64_t e = std::min<uint64_t>(b + block, n);
      for (uint64_t u = b; u < e; ++u)
        for (eid_t i = csr.offsets[u]; i < csr.offsets[u + 1]; ++i)
          line(vid_t(u), csr.targets[i], weighted ? csr.weights[i] : 0, s);
    }
    for (const std::string& s : bufs) ok = ok && std::fwrite(s.data(), 1, s.size(), f) == s.size();
    if (uint64_t(lo) + uint64_t(block) * bufs.size() >= n) break;
  }
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) throw Error(path + ": write failed: " + std::strerror(errno));
}

}  // namespace chatty
