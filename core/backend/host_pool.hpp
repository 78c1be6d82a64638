// A caching allocator for host memory: freed blocks are kept by size and handed out again, so a training
// step that allocates the same sizes every time stops asking the system (and wasm memory stops growing).
#pragma once
#include <cstddef>

#include "backend/block_cache.hpp"

namespace tf {

class HostPool {
 public:
  static constexpr size_t kAlignment = 64;
  void* allocate(size_t bytes);
  void deallocate(void* p, size_t bytes);
  size_t cached_bytes() const { return cache_.cached_bytes(); }
  size_t live_bytes() const { return cache_.live_bytes(); }
  void release_cached();  // returns every cached block to the system
  ~HostPool() { release_cached(); }

 private:
  BlockCache cache_;
};

HostPool& host_pool();

}  // namespace tf
