#include "tensor/storage.hpp"

#include "backend/backend.hpp"

namespace tf {

Storage::Storage(Device device, size_t numel) : device_(device), numel_(numel), data_(nullptr) {
  if (numel_ > 0) data_ = static_cast<float*>(backend_for(device_).allocate(numel_ * sizeof(float)));
}

Storage::~Storage() {
  if (data_) backend_for(device_).deallocate(data_, numel_ * sizeof(float));
}

}  // namespace tf
