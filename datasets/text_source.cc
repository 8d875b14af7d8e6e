#include "datasets/text_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "datasets/mapped_file.h"
#include "runtime/base/status.h"

namespace chatty {
namespace {

// Large enough that parsing a block in parallel amortises its start-up, small
// enough that three in flight cost little memory.
std::atomic<size_t> block_bytes{size_t(32) << 20};

// Editors on Windows start UTF-8 text with a byte order mark.
TextBlock without_bom(TextBlock b) {
  if (b.size >= 3 && std::memcmp(b.data, "\xEF\xBB\xBF", 3) == 0) {
    b.data += 3;
    b.size -= 3;
  }
  return b;
}

class MappedSource : public TextSource {
 public:
  MappedSource(std::shared_ptr<const MappedFile> f, const std::string& path) : file_(std::move(f)) {
    path_ = path;
    mapped_ = true;
    first_ = without_bom(TextBlock{file_->data(), file_->size(), true});
  }
  bool next(TextBlock& b) override {
    if (done_) return false;
    b = first_;
    done_ = true;
    return true;
  }

 private:
  std::shared_ptr<const MappedFile> file_;
  bool done_ = false;
};

// Blocks of whole lines from a byte stream, filled by a producer thread that
// stays up to two blocks ahead.
class StreamSource : public TextSource {
 public:
  StreamSource(std::unique_ptr<ByteReader> in, int fd_to_close, const std::string& path, Compression c)
      : in_(std::move(in)), fd_(fd_to_close), block_(block_bytes.load()) {
    path_ = path;
    compression_ = c;
    for (auto& b : pool_) b.reserve(block_);
    for (int i = 0; i < 3; ++i) free_.push_back(i);
    producer_ = std::thread([this] { produce(); });
  }
  // Waits for the first block (outside the constructor, so that an error in
  // it still joins the producer through the destructor).
  void start() {
    TextBlock b;
    have_first_ = take(b);
    first_ = have_first_ ? without_bom(b) : TextBlock{nullptr, 0, true};
  }
  ~StreamSource() override {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    producer_.join();
    if (fd_ >= 0) ::close(fd_);
  }

  bool next(TextBlock& b) override {
    if (have_first_) {
      have_first_ = false;
      b = first_;
      return true;
    }
    return take(b);
  }

 private:
  struct Filled {
    int buf;
    bool last;
  };

  // Hands out the next filled block and returns the one handed out before.
  bool take(TextBlock& b) {
    std::unique_lock<std::mutex> lk(mu_);
    if (current_ >= 0) free_.push_back(current_);
    current_ = -1;
    cv_.notify_all();
    if (ended_) return false;
    cv_.wait(lk, [&] { return !filled_.empty() || error_ || finished_; });
    if (error_) std::rethrow_exception(error_);
    if (filled_.empty()) return false;
    Filled f = filled_.front();
    filled_.pop_front();
    current_ = f.buf;
    ended_ = f.last;
    b = TextBlock{pool_[size_t(f.buf)].data(), pool_[size_t(f.buf)].size(), f.last};
    return true;
  }

  void produce() {
    try {
      std::string carry;  // the partial line at a block's end
      bool eof = false;
      while (!eof) {
        int buf = -1;
        {
          std::unique_lock<std::mutex> lk(mu_);
          cv_.wait(lk, [&] { return !free_.empty() || stop_; });
          if (stop_) return;
          buf = free_.front();
          free_.pop_front();
        }
        std::vector<char>& v = pool_[size_t(buf)];
        v.assign(carry.begin(), carry.end());
        carry.clear();
        eof = fill(v);
        if (!eof) {
          size_t cut = v.size();
          while (cut > 0 && v[cut - 1] != '\n') --cut;
          if (cut == 0)
            throw Error(path_ + ": a line longer than " + std::to_string(block_) + " bytes (not a text graph?)");
          carry.assign(v.begin() + std::ptrdiff_t(cut), v.end());
          v.resize(cut);
          // A stream that ends exactly at a block boundary: peek, so that
          // this block is marked last and the loader sees the file's end.
          if (carry.empty()) {
            char peek[4096];
            const size_t k = in_->read(peek, std::min(sizeof peek, block_));
            if (k == 0) eof = true;
            carry.assign(peek, k);
          }
        }
        std::lock_guard<std::mutex> lk(mu_);
        filled_.push_back({buf, eof});
        cv_.notify_all();
      }
    } catch (...) {
      std::lock_guard<std::mutex> lk(mu_);
      error_ = std::current_exception();
      cv_.notify_all();
      return;
    }
    std::lock_guard<std::mutex> lk(mu_);
    finished_ = true;
    cv_.notify_all();
  }

  // Reads until v holds a block's bytes; true when the stream ended first.
  bool fill(std::vector<char>& v) {
    size_t have = v.size();
    if (have >= block_) return false;
    v.resize(block_);
    while (have < block_) {
      const size_t k = in_->read(v.data() + have, block_ - have);
      if (k == 0) {
        v.resize(have);
        return true;
      }
      have += k;
    }
    return false;
  }

  std::unique_ptr<ByteReader> in_;
  int fd_;
  size_t block_;
  std::vector<char> pool_[3];
  std::thread producer_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<int> free_;
  std::deque<Filled> filled_;
  int current_ = -1;
  bool stop_ = false, finished_ = false, ended_ = false, have_first_ = false;
  std::exception_ptr error_;
};

std::unique_ptr<TextSource> start_stream(std::unique_ptr<ByteReader> in, int fd, const std::string& name,
                                         Compression c) {
  auto s = std::make_unique<StreamSource>(std::move(in), fd, name, c);
  s->start();
  return s;
}

// Reads up to n bytes of fd for a look at its magic (pipes cannot seek back).
std::string read_prefix(int fd, size_t n, const std::string& path) {
  std::string s(n, '\0');
  size_t have = 0;
  while (have < n) {
    const ssize_t k = ::read(fd, s.data() + have, n - have);
    if (k == 0) break;
    if (k < 0) {
      if (errno == EINTR) continue;
      throw Error(path + ": read failed: " + std::strerror(errno));
    }
    have += size_t(k);
  }
  s.resize(have);
  return s;
}

}  // namespace

void set_stream_block_bytes(size_t bytes) { block_bytes = std::max<size_t>(bytes, 64); }

std::unique_ptr<TextSource> TextSource::open(const std::string& path) {
  const bool std_in = path == "-";
  const std::string name = std_in ? "standard input" : path;
  // Reading a terminal would wait for typing: a hang, not a load.
  CHATTY_CHECK(!std_in || !isatty(STDIN_FILENO),
               "--graph=-: standard input is a terminal; pipe a graph in (zcat g.txt.gz | chatty run --graph=- ...)");
  int fd = std_in ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY);
  if (fd < 0) {
    const bool bare = errno == ENOENT && path.find('/') == std::string::npos;
    if (bare && (" " + std::string(CHATTY_CATALOG_NAMES) + " ").find(" " + path + " ") != std::string::npos)
      throw Error(path + ": a data set of the catalogue, not fetched yet: python3 datasets/fetch.py get " + path +
                  " (then --graph=" + path + ")");
    throw Error(
        path + ": cannot open: " + std::strerror(errno) +
        (bare ? " (not a file, a spec such as kron:20, or a fetched data set: python3 datasets/fetch.py list)" : ""));
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    if (!std_in) ::close(fd);
    throw Error(name + ": not a regular file");
  }
  const int owned = std_in ? -1 : fd;
  if (S_ISREG(st.st_mode) && !std_in) {
    char magic[4] = {0};
    const ssize_t k = ::pread(fd, magic, sizeof magic, 0);
    const Compression c = compression_of(magic, k > 0 ? size_t(k) : 0);
    if (c == Compression::kNone) {
      ::close(fd);
      return std::make_unique<MappedSource>(MappedFile::open(path), path);
    }
    return start_stream(decompressor(c, fd_reader(fd, "", name), name), owned, name, c);
  }
  std::string prefix;
  try {
    prefix = read_prefix(fd, 4, name);
  } catch (...) {
    if (owned >= 0) ::close(owned);
    throw;
  }
  const Compression c = compression_of(prefix.data(), prefix.size());
  return start_stream(decompressor(c, fd_reader(fd, std::move(prefix), name), name), owned, name, c);
}

}  // namespace chatty
