#include "backend/host_pool.hpp"

#include <cstdlib>
#include <new>

#include "util/error.hpp"

namespace tf {

namespace {
size_t rounded(size_t bytes) {
  return (bytes + HostPool::kAlignment - 1) / HostPool::kAlignment * HostPool::kAlignment;
}
}  // namespace

void* HostPool::allocate(size_t bytes) {
  size_t size = rounded(bytes);
  if (void* p = cache_.take(size)) return p;
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

void HostPool::deallocate(void* p, size_t bytes) { cache_.keep(p, rounded(bytes)); }

void HostPool::release_cached() {
  cache_.release([](void* p) { std::free(p); });
}

HostPool& host_pool() {
  // Never destroyed: tensors held in statics may be freed after main returns.
  static HostPool* pool = new HostPool;
  return *pool;
}

}  // namespace tf
