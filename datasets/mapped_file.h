// A read-only memory map of a whole file. Text loaders parse it in place and
// .cgr graphs use it as their storage, so big inputs are never copied.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace chatty {

class MappedFile {
 public:
  // Throws chatty::Error naming the path when it cannot be opened or mapped.
  static std::shared_ptr<const MappedFile> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return data_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  MappedFile() = default;
  std::string path_;
  const char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace chatty
