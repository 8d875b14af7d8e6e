// Text input for the loaders, in blocks of whole lines: a regular file is
// mapped and comes as one block (parsed in place, never copied); a pipe,
// standard input ("-") or a compressed file streams in blocks that a second
// thread reads and decompresses ahead while the loader parses the last one.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "datasets/byte_reader.h"

namespace chatty {

struct TextBlock {
  const char* data = nullptr;
  size_t size = 0;
  bool last = false;  // no block follows
};

class TextSource {
 public:
  // Opens `path` ("-": standard input) and reads its first block. Throws
  // chatty::Error naming the path when it cannot be opened or read.
  static std::unique_ptr<TextSource> open(const std::string& path);
  virtual ~TextSource() = default;

  const std::string& path() const { return path_; }
  Compression compression() const { return compression_; }
  // A regular uncompressed file, mapped: the only kind a .cgr can be.
  bool mapped() const { return mapped_; }
  // The first block, without consuming it (format sniffing, headers).
  const TextBlock& first() const { return first_; }
  // The next block, first() included; false after the last. A block stays
  // valid until the following call.
  virtual bool next(TextBlock& b) = 0;

 protected:
  std::string path_;
  Compression compression_ = Compression::kNone;
  bool mapped_ = false;
  TextBlock first_;
};

// Bytes per streamed block (default 32 MiB). Tests make it small so that
// lines, headers and end markers fall across block seams.
void set_stream_block_bytes(size_t bytes);

}  // namespace chatty
