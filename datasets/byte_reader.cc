#include "datasets/byte_reader.h"

#include <bzlib.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "runtime/base/status.h"

namespace chatty {
namespace {

constexpr size_t kInput = 1 << 20;  // compressed bytes per refill

class FdReader : public ByteReader {
 public:
  FdReader(int fd, std::string prefix, std::string name)
      : fd_(fd), prefix_(std::move(prefix)), name_(std::move(name)) {}

  size_t read(char* buf, size_t cap) override {
    if (pos_ < prefix_.size()) {
      const size_t k = std::min(cap, prefix_.size() - pos_);
      std::memcpy(buf, prefix_.data() + pos_, k);
      pos_ += k;
      return k;
    }
    for (;;) {
      const ssize_t k = ::read(fd_, buf, cap);
      if (k >= 0) return size_t(k);
      if (errno != EINTR) throw Error(name_ + ": read failed: " + std::strerror(errno));
    }
  }

 private:
  int fd_;
  std::string prefix_;
  size_t pos_ = 0;
  std::string name_;
};

// The compressed side shared by the decoders: a refillable input window.
class Input {
 public:
  explicit Input(std::unique_ptr<ByteReader> raw) : raw_(std::move(raw)), buf_(kInput) {}
  // Refills when empty; false at the end of the compressed stream.
  bool fill() {
    if (begin_ < end_) return true;
    begin_ = 0;
    end_ = raw_->read(buf_.data(), buf_.size());
    return end_ > 0;
  }
  const char* data() const { return buf_.data() + begin_; }
  size_t size() const { return end_ - begin_; }
  void consume(size_t k) { begin_ += k; }

 private:
  std::unique_ptr<ByteReader> raw_;
  std::vector<char> buf_;
  size_t begin_ = 0, end_ = 0;
};

// gzip (and zlib) members, concatenated members read as one stream.
class GzipReader : public ByteReader {
 public:
  GzipReader(std::unique_ptr<ByteReader> raw, std::string name) : in_(std::move(raw)), name_(std::move(name)) {
    CHATTY_CHECK(inflateInit2(&zs_, 15 + 32) == Z_OK, name_ + ": cannot start gzip decompression");
  }
  ~GzipReader() override { inflateEnd(&zs_); }

  size_t read(char* buf, size_t cap) override {
    size_t out = 0;
    while (out < cap && !done_) {
      if (!in_.fill()) {
        if (in_member_) throw Error(name_ + ": truncated gzip data (the file ends inside a compressed member)");
        break;
      }
      // After a member, another member or the end: bytes that are no gzip
      // header are trailing padding, which gzip itself ignores.
      if (!in_member_ && after_member_ &&
          !(in_.size() >= 2 && uint8_t(in_.data()[0]) == 0x1f && uint8_t(in_.data()[1]) == 0x8b)) {
        done_ = true;
        break;
      }
      zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in_.data()));
      zs_.avail_in = uInt(in_.size());
      zs_.next_out = reinterpret_cast<Bytef*>(buf + out);
      zs_.avail_out = uInt(std::min<size_t>(cap - out, 1u << 30));
      const int rc = inflate(&zs_, Z_NO_FLUSH);
      in_.consume(in_.size() - zs_.avail_in);
      out = size_t(reinterpret_cast<char*>(zs_.next_out) - buf);
      in_member_ = true;
      if (rc == Z_STREAM_END) {
        in_member_ = false;
        after_member_ = true;
        inflateReset(&zs_);
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw Error(name_ + ": corrupt gzip data (" + (zs_.msg ? zs_.msg : "inflate failed") + ")");
      }
    }
    return out;
  }

 private:
  Input in_;
  std::string name_;
  z_stream zs_{};
  bool in_member_ = false, after_member_ = false, done_ = false;
};

class ZstdReader : public ByteReader {
 public:
  ZstdReader(std::unique_ptr<ByteReader> raw, std::string name)
      : in_(std::move(raw)), name_(std::move(name)), ctx_(ZSTD_createDCtx()) {
    CHATTY_CHECK(ctx_ != nullptr, name_ + ": cannot start zstd decompression");
  }
  ~ZstdReader() override { ZSTD_freeDCtx(ctx_); }

  size_t read(char* buf, size_t cap) override {
    ZSTD_outBuffer ob{buf, cap, 0};
    while (ob.pos < ob.size) {
      if (!in_.fill()) {
        if (pending_ != 0) throw Error(name_ + ": truncated zstd data (the file ends inside a frame)");
        break;
      }
      ZSTD_inBuffer ib{in_.data(), in_.size(), 0};
      pending_ = ZSTD_decompressStream(ctx_, &ob, &ib);
      in_.consume(ib.pos);
      if (ZSTD_isError(pending_)) throw Error(name_ + ": corrupt zstd data (" + ZSTD_getErrorName(pending_) + ")");
    }
    return ob.pos;
  }

 private:
  Input in_;
  std::string name_;
  ZSTD_DCtx* ctx_;
  size_t pending_ = 0;  // non-zero inside a frame
};

// bzip2 streams, concatenated streams (pbzip2's output) read as one.
class Bzip2Reader : public ByteReader {
 public:
  Bzip2Reader(std::unique_ptr<ByteReader> raw, std::string name) : in_(std::move(raw)), name_(std::move(name)) {
    start();
  }
  ~Bzip2Reader() override { BZ2_bzDecompressEnd(&bz_); }

  size_t read(char* buf, size_t cap) override {
    size_t out = 0;
    while (out < cap) {
      if (!in_.fill()) {
        if (in_stream_) throw Error(name_ + ": truncated bzip2 data (the file ends inside a stream)");
        break;
      }
      if (!in_stream_ && ended_) {
        BZ2_bzDecompressEnd(&bz_);
        start();
      }
      bz_.next_in = const_cast<char*>(in_.data());
      bz_.avail_in = unsigned(in_.size());
      bz_.next_out = buf + out;
      bz_.avail_out = unsigned(std::min<size_t>(cap - out, 1u << 30));
      const int rc = BZ2_bzDecompress(&bz_);
      in_.consume(in_.size() - bz_.avail_in);
      out = size_t(bz_.next_out - buf);
      in_stream_ = true;
      if (rc == BZ_STREAM_END) {
        in_stream_ = false;
        ended_ = true;
      } else if (rc != BZ_OK) {
        throw Error(name_ + ": corrupt bzip2 data (error " + std::to_string(rc) + ")");
      }
    }
    return out;
  }

 private:
  void start() {
    bz_ = bz_stream{};
    CHATTY_CHECK(BZ2_bzDecompressInit(&bz_, 0, 0) == BZ_OK, name_ + ": cannot start bzip2 decompression");
    ended_ = false;
  }
  Input in_;
  std::string name_;
  bz_stream bz_{};
  bool in_stream_ = false, ended_ = false;
};

}  // namespace

Compression compression_of(const char* p, size_t n) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  if (n >= 2 && u[0] == 0x1f && u[1] == 0x8b) return Compression::kGzip;
  if (n >= 4 && u[0] == 0x28 && u[1] == 0xb5 && u[2] == 0x2f && u[3] == 0xfd) return Compression::kZstd;
  if (n >= 4 && u[0] == 'B' && u[1] == 'Z' && u[2] == 'h' && u[3] >= '1' && u[3] <= '9') return Compression::kBzip2;
  return Compression::kNone;
}

const char* compression_name(Compression c) {
  switch (c) {
    case Compression::kGzip: return "gzip";
    case Compression::kZstd: return "zstd";
    case Compression::kBzip2: return "bzip2";
    default: return "";
  }
}

std::unique_ptr<ByteReader> fd_reader(int fd, std::string prefix, const std::string& name) {
  return std::make_unique<FdReader>(fd, std::move(prefix), name);
}

std::unique_ptr<ByteReader> decompressor(Compression c, std::unique_ptr<ByteReader> raw, const std::string& name) {
  switch (c) {
    case Compression::kGzip: return std::make_unique<GzipReader>(std::move(raw), name);
    case Compression::kZstd: return std::make_unique<ZstdReader>(std::move(raw), name);
    case Compression::kBzip2: return std::make_unique<Bzip2Reader>(std::move(raw), name);
    default: return raw;
  }
}

}  // namespace chatty
