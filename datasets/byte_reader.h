// Byte streams under the text loaders: a file descriptor read as it is, or
// decompressed from gzip, zstd or bzip2 (chosen by the stream's magic bytes,
// never by the name, so a renamed or piped archive still reads right).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace chatty {

enum class Compression { kNone, kGzip, kZstd, kBzip2 };

// The compression whose magic starts p[0..n), or kNone.
Compression compression_of(const char* p, size_t n);
// "" for kNone, else "gzip", "zstd" or "bzip2".
const char* compression_name(Compression c);

class ByteReader {
 public:
  virtual ~ByteReader() = default;
  // Fills up to cap bytes; returns 0 only at the end of the stream. Throws
  // chatty::Error naming the input for a read error or corrupt or truncated
  // compressed data.
  virtual size_t read(char* buf, size_t cap) = 0;
};

// Reads fd (not owned) from its current position, `prefix` first: the bytes
// already taken from a pipe to look at its magic.
std::unique_ptr<ByteReader> fd_reader(int fd, std::string prefix, const std::string& name);
// Decompresses what `raw` yields.
std::unique_ptr<ByteReader> decompressor(Compression c, std::unique_ptr<ByteReader> raw, const std::string& name);

}  // namespace chatty
