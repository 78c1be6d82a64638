// Offsets inside one block of device memory (the WebGPU backend's arena: a single GPUBuffer that every
// shader binds; it grows at its end, so offsets handed out stay valid). Best fit over the free ranges, which
// are merged with their neighbours when freed, so a training step that frees and allocates the same sizes
// reuses the same ranges and the arena does not fragment into unusable pieces. Knows nothing of WebGPU: a
// native test holds it to its promises.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace tf {

class ArenaAllocator {
 public:
  static constexpr size_t kAlignment = 256;  // WebGPU's minStorageBufferOffsetAlignment, at most
  explicit ArenaAllocator(size_t capacity);
  // The offset of `bytes` (rounded up to kAlignment, at least one unit) of free space, or nothing when no
  // free range is large enough.
  std::optional<size_t> allocate(size_t bytes);
  void deallocate(size_t offset, size_t bytes);  // bytes as given to allocate
  void grow(size_t capacity);                    // the new tail is free, joined to a free range before it
  size_t capacity() const { return capacity_; }
  size_t live_bytes() const { return live_; }
  size_t largest_free() const;

  static size_t rounded(size_t bytes);

 private:
  void insert_free(size_t offset, size_t size);
  void erase_free(std::map<size_t, size_t>::iterator it);

  size_t capacity_;
  size_t live_ = 0;
  std::map<size_t, size_t> by_offset_;           // free ranges: offset -> size
  std::set<std::pair<size_t, size_t>> by_size_;  // the same ranges as (size, offset), for best fit
};

}  // namespace tf
