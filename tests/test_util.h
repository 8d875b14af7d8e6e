// Helpers shared by the test suites: temporary files and error capture.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/graph/graph.h"

namespace chatty::testing {

// A per-process scratch directory, removed at exit.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("chatty_test_" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(std::filesystem::temp_directory_path() / ("chatty_test_" + std::to_string(getpid())),
                                  ec);
    });
    return d;
  }();
  return dir;
}

inline std::string temp_path(const std::string& name) { return (scratch_dir() / name).string(); }

inline std::string write_file(const std::string& name, const std::string& content) {
  std::string p = temp_path(name);
  std::ofstream(p, std::ios::binary) << content;
  return p;
}

// The message of the chatty::Error f throws, or "(no error)".
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// Each vertex's out-neighbours, in the CSR's order.
inline std::vector<std::vector<vid_t>> neighbours(const Graph& g) {
  std::vector<std::vector<vid_t>> a(g.num_vertices());
  for (vid_t u = 0; u < g.num_vertices(); ++u)
    for (eid_t e = g.out().offsets[u]; e < g.out().offsets[u + 1]; ++e) a[u].push_back(g.out().targets[e]);
  return a;
}

inline std::string data_file(const std::string& name) { return std::string(CHATTY_TEST_DATA) + "/" + name; }

}  // namespace chatty::testing
