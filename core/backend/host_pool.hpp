// A caching allocator for host memory: freed blocks are kept by size and handed out again, so a training
// step that allocates the same sizes every time stops asking the system (and wasm memory stops growing).
#pragma once
#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tf {

class HostPool {
 public:
  static constexpr size_t kAlignment = 64;
  void* allocate(size_t bytes);
  void deallocate(void* p, size_t bytes);
  size_t cached_bytes() const;
  size_t live_bytes() const;
  void release_cached();  // returns every cached block to the system
  ~HostPool();

 private:
  mutable std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> free_;
  size_t cached_ = 0, live_ = 0;
};

HostPool& host_pool();

}  // namespace tf
