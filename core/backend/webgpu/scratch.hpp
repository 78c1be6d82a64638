// A range of the arena borrowed for the length of one launcher (partial sums, a staging copy). Freeing it
// before the recorded work has run is safe: every later use of the range is recorded after that work and
// runs after it on the queue.
#pragma once
#include <cstddef>

#include "backend/block_cache.hpp"
#include "backend/webgpu/kernels.hpp"

namespace tf::webgpu {

struct ArenaMemory {
  void* allocate(size_t bytes) { return webgpu::allocate(bytes); }
  void deallocate(void* p, size_t bytes) { webgpu::deallocate(p, bytes); }
};

inline ArenaMemory& arena_memory() {
  static ArenaMemory memory;
  return memory;
}

template <class T>
class Scratch : public PoolBuffer<T, ArenaMemory> {
 public:
  explicit Scratch(size_t n) : PoolBuffer<T, ArenaMemory>(arena_memory(), n) {}
};

}  // namespace tf::webgpu
