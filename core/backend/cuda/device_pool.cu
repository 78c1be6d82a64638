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
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = free_.find(size);
    if (it != free_.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      cached_ -= size;
      live_ += size;
      return p;
    }
  }
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
  std::lock_guard<std::mutex> lock(mutex_);
  live_ += size;
  return p;
}

void DevicePool::deallocate(void* p, size_t bytes) {
  if (!p) return;
  size_t size = rounded(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  free_[size].push_back(p);
  cached_ += size;
  live_ -= size;
}

size_t DevicePool::cached_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cached_;
}

size_t DevicePool::live_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_;
}

void DevicePool::release_cached() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& entry : free_)
    for (void* p : entry.second) TF_CUDA_CALL(cudaFree(p));
  free_.clear();
  cached_ = 0;
}

DevicePool& device_pool() {
  // Never destroyed: tensors held in statics are freed after main returns, when the runtime may be gone.
  static DevicePool* pool = new DevicePool;
  return *pool;
}

}  // namespace tf::cuda
