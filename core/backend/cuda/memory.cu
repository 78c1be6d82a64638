// Copies between host and device and within the device, and fill. Device-to-device copy keeps memmove's
// meaning (the CPU backends use memmove): overlapping ranges go through a scratch buffer, since
// cudaMemcpy's result is undefined for them.
#include "backend/cuda/common.cuh"
#include "backend/cuda/device_pool.cuh"
#include "backend/cuda/kernels.cuh"

namespace tf::cuda {

namespace {
__global__ void fill_kernel(float* dst, float value, int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) dst[i] = value;
}

bool overlaps(const void* a, const void* b, size_t bytes) {
  auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + bytes && y < x + bytes;
}
}  // namespace

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

void fill(float* dst, float value, size_t n) {
  if (!n) return;
  fill_kernel<<<flat_blocks(static_cast<int64_t>(n)), kThreads>>>(dst, value, static_cast<int64_t>(n));
  TF_CUDA_LAUNCHED("fill_kernel");
}

void synchronize() { TF_CUDA_CALL(cudaDeviceSynchronize()); }

}  // namespace tf::cuda
