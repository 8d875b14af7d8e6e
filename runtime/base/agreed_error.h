// An error every rank of a run holds (agreed in a collective), so that
// rank 0 alone prints it and no rank aborts the job for it.
#pragma once

#include <string>

#include "runtime/base/status.h"

namespace chatty {

class AgreedError : public Error {
 public:
  explicit AgreedError(const std::string& what);
  AgreedError(const AgreedError& other);
  AgreedError& operator=(const AgreedError&) = default;
  ~AgreedError() override;
};

// Whether this thread unwinds an error of this rank's own (any exception
// while no AgreedError exists): the other ranks are then elsewhere, and a
// destructor must not enter a collective (MPI_Win_free) that they would
// never meet; main ends the job with MPI_Abort instead. Inside a catch
// block nothing unwinds: an object that holds a window must not end there
// after a rank-local error.
bool unwinding_alone();

}  // namespace chatty
