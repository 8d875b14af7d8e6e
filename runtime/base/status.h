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

// A command line the program cannot take: a flag's value, a flag that does
// not apply, flags that exclude each other. `chatty` exits 2 for it, 1 for
// every other Error (the input, the machine).
class UsageError : public Error {
 public:
  using Error::Error;
};

// Calls f, turning the chatty::Error it throws into a UsageError: for code
// that checks flags and nothing else.
template <typename F>
auto as_usage(F&& f) {
  try {
    return f();
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

// Throws chatty::Error(msg) unless cond holds.
#define CHATTY_CHECK(cond, msg)              \
  do {                                       \
    if (!(cond)) throw ::chatty::Error(msg); \
  } while (0)

}  // namespace chatty
