// What the host and device memory pools share: free lists of blocks by rounded size, so that a training
// step which allocates the same sizes every time is served from the cache instead of the system (malloc
// or cudaMalloc), and a scoped buffer borrowed from such a pool. The pools only add how a block is got
// from and given back to the system.
#pragma once
#include <algorithm>
#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tf {

class BlockCache {
 public:
  // A cached block of exactly `size` bytes, now live; nullptr when none is cached.
  void* take(size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = free_.find(size);
    if (it == free_.end() || it->second.empty()) return nullptr;
    void* p = it->second.back();
    it->second.pop_back();
    cached_ -= size;
    live_ += size;
    return p;
  }
  // A block of `size` bytes newly got from the system is live.
  void add_live(size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    live_ += size;
  }
  // A live block is freed: keep it for the next request of its size.
  void keep(void* p, size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_[size].push_back(p);
    cached_ += size;
    live_ -= size;
  }
  // Hands every cached block to `give_back` (free, cudaFree) and forgets it.
  template <class GiveBack>
  void release(GiveBack give_back) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& entry : free_)
      for (void* p : entry.second) give_back(p);
    free_.clear();
    cached_ = 0;
  }
  size_t cached_bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return cached_;
  }
  size_t live_bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_;
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> free_;
  size_t cached_ = 0, live_ = 0;
};

// Room for n values of T borrowed from `pool` (anything with allocate/deallocate) until the end of the scope.
template <class T, class Pool>
class PoolBuffer {
 public:
  PoolBuffer(Pool& pool, size_t n)
      : pool_(pool), bytes_(std::max<size_t>(n, 1) * sizeof(T)), p_(static_cast<T*>(pool.allocate(bytes_))) {}
  ~PoolBuffer() { pool_.deallocate(p_, bytes_); }
  PoolBuffer(const PoolBuffer&) = delete;
  PoolBuffer& operator=(const PoolBuffer&) = delete;
  T* get() const { return p_; }

 private:
  Pool& pool_;
  size_t bytes_;
  T* p_;
};

}  // namespace tf
