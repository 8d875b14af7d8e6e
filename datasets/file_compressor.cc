#include "datasets/file_compressor.h"

#include <bzlib.h>
#include <zlib.h>
#include <zstd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "runtime/base/status.h"

namespace chatty {
namespace {

constexpr size_t kChunk = 1 << 20;

struct Closer {
  void operator()(FILE* f) const {
    if (f) std::fclose(f);
  }
};
using File = std::unique_ptr<FILE, Closer>;

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(const std::string& s, const char* z) {
  const size_t k = std::strlen(z);
  return s.size() > k && lower(s.substr(s.size() - k)) == z;
}

void put(FILE* f, const void* p, size_t n, const std::string& to) {
  if (n && std::fwrite(p, 1, n, f) != n) throw Error(to + ": write failed: " + std::strerror(errno));
}

void gzip(FILE* in, FILE* out, const std::string& to) {
  z_stream zs{};
  // windowBits 15 + 16: a gzip header and trailer, as gzip(1) writes.
  CHATTY_CHECK(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK,
               to + ": cannot start gzip compression");
  std::vector<unsigned char> ib(kChunk), ob(kChunk);
  int flush = Z_NO_FLUSH;
  do {
    zs.avail_in = uInt(std::fread(ib.data(), 1, ib.size(), in));
    zs.next_in = ib.data();
    flush = std::feof(in) ? Z_FINISH : Z_NO_FLUSH;
    do {
      zs.avail_out = uInt(ob.size());
      zs.next_out = ob.data();
      deflate(&zs, flush);
      put(out, ob.data(), ob.size() - zs.avail_out, to);
    } while (zs.avail_out == 0);
  } while (flush != Z_FINISH);
  deflateEnd(&zs);
}

void zstd(FILE* in, FILE* out, const std::string& to) {
  std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  CHATTY_CHECK(cx != nullptr, to + ": cannot start zstd compression");
  std::vector<char> ib(kChunk), ob(ZSTD_CStreamOutSize());
  for (;;) {
    const size_t n = std::fread(ib.data(), 1, ib.size(), in);
    const bool last = std::feof(in);
    ZSTD_inBuffer zin{ib.data(), n, 0};
    for (bool done = false; !done;) {
      ZSTD_outBuffer zout{ob.data(), ob.size(), 0};
      const size_t left = ZSTD_compressStream2(cx.get(), &zout, &zin, last ? ZSTD_e_end : ZSTD_e_continue);
      CHATTY_CHECK(!ZSTD_isError(left), to + ": zstd compression failed (" + ZSTD_getErrorName(left) + ")");
      put(out, ob.data(), zout.pos, to);
      done = last ? left == 0 : zin.pos == zin.size;
    }
    if (last) return;
  }
}

void bzip2(FILE* in, FILE* out, const std::string& to) {
  bz_stream bz{};
  CHATTY_CHECK(BZ2_bzCompressInit(&bz, 9, 0, 0) == BZ_OK, to + ": cannot start bzip2 compression");
  std::vector<char> ib(kChunk), ob(kChunk);
  int rc = BZ_RUN_OK;
  do {
    const size_t n = std::fread(ib.data(), 1, ib.size(), in);
    const bool last = std::feof(in);
    bz.next_in = ib.data();
    bz.avail_in = unsigned(n);
    do {
      bz.next_out = ob.data();
      bz.avail_out = unsigned(ob.size());
      rc = BZ2_bzCompress(&bz, last ? BZ_FINISH : BZ_RUN);
      put(out, ob.data(), ob.size() - bz.avail_out, to);
    } while (last ? rc == BZ_FINISH_OK : bz.avail_in > 0);
    if (last) break;
  } while (true);
  BZ2_bzCompressEnd(&bz);
  CHATTY_CHECK(rc == BZ_STREAM_END, to + ": bzip2 compression failed");
}

}  // namespace

Compression compression_of_name(const std::string& path) {
  if (ends_with(path, ".gz")) return Compression::kGzip;
  if (ends_with(path, ".zst") || ends_with(path, ".zstd")) return Compression::kZstd;
  if (ends_with(path, ".bz2")) return Compression::kBzip2;
  return Compression::kNone;
}

std::string without_compression_suffix(const std::string& path) {
  for (const char* z : {".gz", ".zst", ".zstd", ".bz2"})
    if (ends_with(path, z)) return path.substr(0, path.size() - std::strlen(z));
  return path;
}

void compress_file(const std::string& from, const std::string& to, Compression c) {
  File in(std::fopen(from.c_str(), "rb"));
  if (!in) throw Error(from + ": cannot read: " + std::strerror(errno));
  File out(std::fopen(to.c_str(), "wb"));
  if (!out) throw Error(to + ": cannot write: " + std::strerror(errno));
  switch (c) {
    case Compression::kGzip: gzip(in.get(), out.get(), to); break;
    case Compression::kZstd: zstd(in.get(), out.get(), to); break;
    case Compression::kBzip2: bzip2(in.get(), out.get(), to); break;
    case Compression::kNone: throw Error(to + ": no compression asked");
  }
  CHATTY_CHECK(!std::ferror(in.get()), from + ": read failed");
  if (std::fclose(out.release()) != 0) throw Error(to + ": write failed: " + std::strerror(errno));
}

}  // namespace chatty
