#include "backend/host_pool.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <new>

#include "util/error.hpp"

namespace tf {

namespace {

size_t round_up(size_t bytes, size_t step) { return (bytes + step - 1) / step * step; }

// Blocks come in size classes: multiples of the alignment up to 4 KiB, then four classes per doubling (at
// most a quarter wasted), so tensors whose size moves a little from step to step (the diffusion loss
// projects only the masked rows, a number that changes every step) share cached blocks.
size_t size_class(size_t bytes) {
  size_t size = round_up(std::max<size_t>(bytes, 1), HostPool::kAlignment);
  if (size <= 4096) return size;
  size_t top = size_t{1} << (std::numeric_limits<size_t>::digits - 1 - __builtin_clzl(size));
  return round_up(size, top / 4);
}

}  // namespace

void* HostPool::allocate(size_t bytes) {
  size_t size = size_class(bytes);
  if (void* p = cache_.take(size)) return p;
  // A miss while blocks are cached means the sizes in use moved: those blocks may never be asked for
  // again, so they go back to the system first and malloc reuses their memory, instead of the heap (which
  // wasm never shrinks) growing by a new block beside them each time.
  if (cache_.cached_bytes() > 0) release_cached();
  void* p = std::aligned_alloc(kAlignment, size);
  if (!p) {
    release_cached();
    p = std::aligned_alloc(kAlignment, size);
  }
  TF_CHECK(p != nullptr, "out of memory: could not allocate ", size, " bytes (", live_bytes() >> 20,
           " MiB already in use); try a smaller model or batch");
  cache_.add_live(size);
  return p;
}

void HostPool::deallocate(void* p, size_t bytes) { cache_.keep(p, size_class(bytes)); }

void HostPool::release_cached() {
  cache_.release([](void* p) { std::free(p); });
}

HostPool& host_pool() {
  // Never destroyed: tensors held in statics may be freed after main returns.
  static HostPool* pool = new HostPool;
  return *pool;
}

}  // namespace tf
