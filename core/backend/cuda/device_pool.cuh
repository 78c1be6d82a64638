// A caching allocator for GPU memory, like host_pool.hpp: freed blocks are kept by size and handed out
// again, so a training step that allocates the same sizes every time stops calling cudaMalloc (which also
// synchronises the device). Safe because all work runs in order on one stream. DeviceScratch borrows a
// buffer from it for the length of one kernel launcher.
#pragma once
#include <cstddef>

#include "backend/block_cache.hpp"

namespace tf::cuda {

class DevicePool {
 public:
  static constexpr size_t kAlignment = 256;  // cudaMalloc's own alignment
  void* allocate(size_t bytes);
  void deallocate(void* p, size_t bytes);
  size_t cached_bytes() const { return cache_.cached_bytes(); }
  size_t live_bytes() const { return cache_.live_bytes(); }
  void release_cached();  // cudaFree of every cached block

 private:
  BlockCache cache_;
};

DevicePool& device_pool();

// A buffer borrowed from the device pool for the length of one kernel launcher.
template <class T>
class DeviceScratch : public PoolBuffer<T, DevicePool> {
 public:
  explicit DeviceScratch(size_t n) : PoolBuffer<T, DevicePool>(device_pool(), n) {}
};

}  // namespace tf::cuda
