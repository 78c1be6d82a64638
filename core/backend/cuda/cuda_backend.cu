// The CUDA backend: its table binds every entry of kernels.hpp to tf::cuda (device_memory.cu and the
// cuda/<stem>.cu launchers). cuda_device_present() asks the runtime once and caches the answer; with no
// driver or no GPU it is false and nothing throws, so a CUDA build runs everywhere and its GPU tests skip.
#include "backend/backend.hpp"
#include "backend/cuda/common.cuh"
#include "backend/cuda/kernels.cuh"

namespace tf {

Backend& cuda_backend() {
  static Backend& backend =
      immortal_backend(Device::CUDA, "cuda", [](Backend& b) { TF_BIND_BACKEND(b, cuda); });
  return backend;
}

bool cuda_device_present() {
  static const bool present = [] {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      cudaGetLastError();  // no driver or no device: clear the error, report none
      return false;
    }
    return count > 0;
  }();
  return present;
}

}  // namespace tf
