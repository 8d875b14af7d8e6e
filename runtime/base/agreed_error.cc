#include "runtime/base/agreed_error.h"

#include <atomic>
#include <exception>

namespace chatty {

namespace {
std::atomic<int> g_agreed_errors{0};  // AgreedErrors in existence, thrown or held
}  // namespace

AgreedError::AgreedError(const std::string& what) : Error(what) { ++g_agreed_errors; }
AgreedError::AgreedError(const AgreedError& other) : Error(other) { ++g_agreed_errors; }
AgreedError::~AgreedError() { --g_agreed_errors; }

bool unwinding_alone() { return std::uncaught_exceptions() > 0 && g_agreed_errors.load() == 0; }

}  // namespace chatty
