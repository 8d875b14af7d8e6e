// The ChattyGraph binary format (.cgr): a 64-byte header, then the CSR
// arrays exactly as they sit in memory, so a file is mmap'd and used in
// place. All integers little-endian.
//
//   offset  size  field
//   0       8     magic "CHATTYGR"
//   8       4     version (1; 2 when the ids are not positions)
//   12      4     flags: bit 0 directed, bit 1 weighted
//   16      8     |V|
//   24      8     |E| (stored, directed edges)
//   32      8     checksum of bytes [64, end) and of the fields above
//   40      8     version 2: the ids' scheme (0 positions, 1 1-based, 2 occurring)
//   48      16    reserved, zero
//   64            offsets[|V|+1] uint64, targets[|E|] uint32,
//                 zero padding to 8 bytes, weights[|E|] uint32 if weighted,
//                 version 2 with occurring ids: zero padding to 8 bytes,
//                 the input's id of each vertex, uint64 ascending
//
// Reading checks size, version, checksum and the CSR invariants (offsets
// monotone from 0 to |E|, targets < |V|) and throws chatty::Error naming the
// file on any mismatch, so a damaged file is never used.
#pragma once

#include <memory>
#include <string>

#include "runtime/graph/graph.h"
#include "runtime/graph/vertex_ids.h"

namespace chatty {

inline constexpr uint32_t kCgrVersion = 2;       // the newest written; 1 is read too
inline constexpr char kCgrMagic[] = "CHATTYGR";  // its first 8 bytes

class TextSource;
struct LoadOptions;
struct LoadInfo;

// Fills *ids with the input's ids the file keeps (positions in version 1).
Graph read_cgr(const std::string& path, VertexIds* ids = nullptr);
void write_cgr(const Graph& g, const std::string& path, const VertexIds& ids = {});

// The format table's reader: `what` used in place (src, which must be a
// regular uncompressed file, is closed first), with the load's options
// applied (symmetrized, weights dropped).
Graph load_cgr(const std::string& what, std::unique_ptr<TextSource>& src, const LoadOptions& opt, LoadInfo& info);

}  // namespace chatty
