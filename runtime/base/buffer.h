// A flat array of trivially-copyable T that either owns malloc'd memory or
// views memory kept alive by someone else (an mmap'd .cgr file). Graphs are
// built from these so a loaded file is used in place, without a copy.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

namespace chatty {

// Drops the pages wholly inside [from, to) of a read-only file map from the
// process's memory, to be read again from the file if touched (the page
// cache keeps them); returns where the pages dropped end (`from` when none).
inline const char* release_file_pages(const char* from, const char* to) {
  const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
  const uintptr_t a = (uintptr_t(from) + page - 1) & ~(page - 1), b = uintptr_t(to) & ~(page - 1);
  if (a >= b) return from;
  madvise(reinterpret_cast<void*>(a), b - a, MADV_DONTNEED);
  return reinterpret_cast<const char*>(b);
}

template <typename T>
class Buffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  Buffer() = default;
  // Uninitialised storage for n elements (pages are touched by whoever fills
  // them, so parallel first-touch places them on the right NUMA node).
  explicit Buffer(size_t n) { allocate(n); }
  // A view of external memory; `keeper` keeps it alive. `file_mapped`: the
  // memory is a read-only map of a file (its pages may be dropped and read
  // again), not memory someone else may have written.
  Buffer(const T* data, size_t n, std::shared_ptr<const void> keeper, bool file_mapped = false)
      : view_(data), size_(n), keeper_(std::move(keeper)), file_mapped_(file_mapped) {}

  Buffer(Buffer&& o) noexcept { swap(o); }
  Buffer& operator=(Buffer&& o) noexcept {
    Buffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { std::free(owned_); }

  void allocate(size_t n) {
    std::free(owned_);
    owned_ = nullptr;
    if (n > 0) {
      owned_ = static_cast<T*>(std::malloc(n * sizeof(T)));
      if (!owned_) throw std::bad_alloc();
    }
    view_ = owned_;
    size_ = n;
    keeper_.reset();
  }
  // Shrinks owned storage in place (realloc returns the tail to the OS for
  // large blocks), so building a deduplicated CSR needs no second copy.
  void shrink(size_t n) {
    if (n >= size_) return;
    if (owned_ && n > 0) {
      if (T* p = static_cast<T*>(std::realloc(owned_, n * sizeof(T)))) owned_ = p;
      view_ = owned_;
    }
    size_ = n;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool owned() const { return owned_ != nullptr || size_ == 0; }
  bool file_mapped() const { return file_mapped_; }
  // A view of a file map: drops the pages wholly inside elements [lo, hi)
  // from the process's memory, to be read again from the file if touched
  // (a pass over a large input that will not come back to it soon).
  // Anything else is left alone.
  void release_resident(size_t lo, size_t hi) const {
    if (!file_mapped_ || hi <= lo) return;
    release_file_pages(reinterpret_cast<const char*>(view_ + lo), reinterpret_cast<const char*>(view_ + hi));
  }
  const T* data() const { return view_; }
  // Only owned buffers are writable.
  T* mutable_data() { return owned_; }
  const T& operator[](size_t i) const { return view_[i]; }
  T& operator[](size_t i) { return owned_[i]; }
  const T* begin() const { return view_; }
  const T* end() const { return view_ + size_; }

 private:
  void swap(Buffer& o) noexcept {
    std::swap(owned_, o.owned_);
    std::swap(view_, o.view_);
    std::swap(size_, o.size_);
    std::swap(keeper_, o.keeper_);
    std::swap(file_mapped_, o.file_mapped_);
  }
  T* owned_ = nullptr;
  const T* view_ = nullptr;
  size_t size_ = 0;
  std::shared_ptr<const void> keeper_;
  bool file_mapped_ = false;
};

}  // namespace chatty
