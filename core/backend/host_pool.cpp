#include "backend/host_pool.hpp"

#include <cstdlib>
#include <new>

#include "util/error.hpp"

namespace tf {

namespace {
size_t rounded(size_t bytes) { return (bytes + HostPool::kAlignment - 1) / HostPool::kAlignment * HostPool::kAlignment; }
}  // namespace

void* HostPool::allocate(size_t bytes) {
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
  void* p = std::aligned_alloc(kAlignment, size);
  if (!p) {
    release_cached();
    p = std::aligned_alloc(kAlignment, size);
  }
  TF_CHECK(p != nullptr, "out of memory: could not allocate ", size, " bytes (", live_ >> 20,
           " MiB already in use); try a smaller model or batch");
  std::lock_guard<std::mutex> lock(mutex_);
  live_ += size;
  return p;
}

void HostPool::deallocate(void* p, size_t bytes) {
  size_t size = rounded(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  free_[size].push_back(p);
  cached_ += size;
  live_ -= size;
}

size_t HostPool::cached_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cached_;
}

size_t HostPool::live_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_;
}

void HostPool::release_cached() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [size, blocks] : free_)
    for (void* p : blocks) std::free(p);
  free_.clear();
  cached_ = 0;
}

HostPool::~HostPool() { release_cached(); }

HostPool& host_pool() {
  // Never destroyed: tensors held in statics may be freed after main returns.
  static HostPool* pool = new HostPool;
  return *pool;
}

}  // namespace tf
