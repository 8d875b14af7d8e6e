// The GPU devices an operator program (runtime/engine/operator_program.h)
// runs its share on: placed on the usable GPUs, each GPU's memory checked
// for what its devices will hold before anything is allocated; the
// program then makes its devices' state and runs its steps on them
// (DeviceSet, runtime/cuda/row_devices.cuh) with the GPU operators.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/cuda/row_devices.cuh"
#include "runtime/engine/work_share.h"

namespace chatty::cuda {

class GpuOperators {
 public:
  explicit GpuOperators(const WorkShare& share) : share_(share) {}
  GpuOperators(const GpuOperators&) = delete;
  GpuOperators& operator=(const GpuOperators&) = delete;

  const WorkShare& share() const { return share_; }

  // Places `devices` devices (at most the share's), each to hold
  // `bytes_per_device`; throws chatty::Error naming `what` (no GPU, too
  // little memory). The placement lives as long as this object.
  const RowDevices& place(int devices, uint64_t bytes_per_device, const char* what) {
    rd_ = place_row_devices(devices, bytes_per_device, what);
    return rd_;
  }
  const std::vector<int>& gpu_of() const { return rd_.place.gpu_of; }

 private:
  WorkShare share_;
  RowDevices rd_;
};

}  // namespace chatty::cuda
