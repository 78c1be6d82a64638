// The device memory pool. On cudaMalloc failure the cached blocks go back to the driver and the
// allocation is tried once more before the out-of-memory error reaches the caller.
#include "backend/cuda/common.cuh"
#include "backend/cuda/device_pool.cuh"

namespace tf::cuda {

namespace {
size_t rounded(size_t bytes) {
  size_t b = std::max<size_t>(bytes, 1);
  return (b + DevicePool::kAlignment - 1) / DevicePool::kAlignment * DevicePool::kAlignment;
}
}  // namespace

void* DevicePool::allocate(size_t bytes) {
  size_t size = rounded(bytes);
  if (void* p = cache_.take(size)) return p;
  void* p = nullptr;
  if (cudaMalloc(&p, size) != cudaSuccess) {
    cudaGetLastError();  // an allocation failure is not sticky: clear it and retry
    release_cached();
    cudaError_t e = cudaMalloc(&p, size);
    if (e != cudaSuccess) {
      cudaGetLastError();
      fail("CUDA out of memory: could not allocate ", size >> 20, " MiB (", live_bytes() >> 20,
           " MiB already in use; ", cudaGetErrorString(e), "); try a smaller model or batch");
    }
  }
  cache_.add_live(size);
  return p;
}

void DevicePool::deallocate(void* p, size_t bytes) {
  if (p) cache_.keep(p, rounded(bytes));
}

void DevicePool::release_cached() {
  cache_.release([](void* p) { TF_CUDA_CALL(cudaFree(p)); });
}

DevicePool& device_pool() {
  // Never destroyed: tensors held in statics are freed after main returns, when the runtime may be gone.
  static DevicePool* pool = new DevicePool;
  return *pool;
}

}  // namespace tf::cuda
