// libFuzzer target for the loaders: any bytes, read as each format, must
// load or raise chatty::Error - never crash, hang or overrun (built with
// ASan). Run: scripts/fuzz.sh [seconds].
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "datasets/load.h"
#include "runtime/base/status.h"

// Text with an 8-digit number implies a graph of 10^7+ vertices: valid, but
// building it takes longer than the fuzzer's per-input timeout (the memory
// check for huge ids has its own test).
static bool implies_huge_graph(const uint8_t* data, size_t size) {
  int run = 0;
  for (size_t i = 0; i < size; ++i) {
    run = (data[i] >= '0' && data[i] <= '9') ? run + 1 : 0;
    if (run >= 8) return true;
  }
  return false;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] % 5 != 4 && implies_huge_graph(data + 1, size - 1)) return 0;
  static const char* kExt[] = {".el", ".wel", ".gr", ".mtx", ".cgr"};
  const std::string path = "/tmp/chatty_fuzz_" + std::to_string(getpid()) + kExt[data[0] % 5];
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data + 1, 1, size - 1, f);
  std::fclose(f);
  try {
    chatty::LoadOptions o;
    o.build.symmetrize = data[0] & 8;
    chatty::Graph g = chatty::load_graph(path, o);
    (void)g.num_edges();
  } catch (const chatty::Error&) {
  }
  std::remove(path.c_str());
  return 0;
}
