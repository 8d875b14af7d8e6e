// Compressed output by the target's name: `chatty convert g.txt out.el.gz`
// writes gzip, .zst zstd, .bz2 bzip2, each readable by the usual tool and
// by this project's loaders.
#pragma once

#include <string>

#include "datasets/byte_reader.h"

namespace chatty {

// The compression a path's suffix asks for (.gz, .zst/.zstd, .bz2), or kNone.
Compression compression_of_name(const std::string& path);
// The path without that suffix: "g.el.gz" names a .el.
std::string without_compression_suffix(const std::string& path);

// Compresses the file `from` into `to` (replaced) with c. Throws
// chatty::Error naming `to` on any failure.
void compress_file(const std::string& from, const std::string& to, Compression c);

}  // namespace chatty
