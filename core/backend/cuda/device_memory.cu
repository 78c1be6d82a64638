// The CUDA backend's memory: blocks from the caching device pool, copies between host and device and within
// the device. Device-to-device copy keeps memmove's meaning (the host backends use memmove): overlapping
// ranges go through a scratch buffer, since cudaMemcpy's result is undefined for them.
#include "backend/cuda/common.cuh"
#include "backend/cuda/device_pool.cuh"
#include "backend/cuda/kernels.cuh"

namespace tf::cuda {

namespace {
bool overlaps(const void* a, const void* b, size_t bytes) {
  auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + bytes && y < x + bytes;
}
}  // namespace

void* allocate(size_t bytes) { return device_pool().allocate(bytes); }
void deallocate(void* p, size_t bytes) { device_pool().deallocate(p, bytes); }

void copy_from_host(void* dst, const void* src, size_t bytes) {
  if (bytes) TF_CUDA_CALL(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}

void copy_to_host(void* dst, const void* src, size_t bytes) {
  if (bytes) TF_CUDA_CALL(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}

void copy(void* dst, const void* src, size_t bytes) {
  if (!bytes || dst == src) return;
  if (!overlaps(dst, src, bytes)) {
    TF_CUDA_CALL(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
    return;
  }
  DeviceScratch<unsigned char> staging(bytes);
  TF_CUDA_CALL(cudaMemcpy(staging.get(), src, bytes, cudaMemcpyDeviceToDevice));
  TF_CUDA_CALL(cudaMemcpy(dst, staging.get(), bytes, cudaMemcpyDeviceToDevice));
}

void synchronize() { TF_CUDA_CALL(cudaDeviceSynchronize()); }

}  // namespace tf::cuda
