// A caching allocator for GPU memory, like host_pool.hpp: freed blocks are kept by size and handed out
// again, so a training step that allocates the same sizes every time stops calling cudaMalloc (which also
// synchronises the device). Safe because all work runs in order on one stream. DeviceScratch borrows a
// buffer from it for the length of one kernel launcher.
#pragma once
#include <algorithm>
#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tf::cuda {

class DevicePool {
 public:
  static constexpr size_t kAlignment = 256;  // cudaMalloc's own alignment
  void* allocate(size_t bytes);
  void deallocate(void* p, size_t bytes);
  size_t cached_bytes() const;
  size_t live_bytes() const;
  void release_cached();  // cudaFree of every cached block

 private:
  mutable std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> free_;
  size_t cached_ = 0, live_ = 0;
};

DevicePool& device_pool();

template <class T>
class DeviceScratch {
 public:
  explicit DeviceScratch(size_t n)
      : bytes_(std::max<size_t>(n, 1) * sizeof(T)), p_(static_cast<T*>(device_pool().allocate(bytes_))) {}
  ~DeviceScratch() { device_pool().deallocate(p_, bytes_); }
  DeviceScratch(const DeviceScratch&) = delete;
  DeviceScratch& operator=(const DeviceScratch&) = delete;
  T* get() const { return p_; }

 private:
  size_t bytes_;
  T* p_;
};

}  // namespace tf::cuda
