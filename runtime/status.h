// One error type for the whole project. Anything a user can cause (bad file,
// bad flag, bad source) is thrown as chatty::Error with a message that names
// the input and, for text formats, the line; `chatty` prints it on one line
// and exits non-zero.
#pragma once

#include <stdexcept>
#include <string>

namespace chatty {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// Throws chatty::Error(msg) unless cond holds.
#define CHATTY_CHECK(cond, msg)              \
  do {                                       \
    if (!(cond)) throw ::chatty::Error(msg); \
  } while (0)

}  // namespace chatty
