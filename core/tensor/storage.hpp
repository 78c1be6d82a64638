// A block of device memory owned through shared_ptr: tensors and their reshape views share one Storage.
// Memory comes from, and goes back to, the device's backend (whose pool keeps training steps
// allocation-free).
#pragma once
#include <cstddef>

#include "backend/device.hpp"

namespace tf {

class Storage {
 public:
  Storage(Device device, size_t numel);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  float* data() const { return data_; }
  size_t numel() const { return numel_; }
  Device device() const { return device_; }

 private:
  Device device_;
  size_t numel_;
  float* data_;
};

}  // namespace tf
