// The arena's free-range bookkeeping: two indexes of the same free ranges (by offset to merge neighbours,
// by size to find the best fit).
#include "backend/arena_allocator.hpp"

#include <iterator>

#include "util/error.hpp"

namespace tf {

ArenaAllocator::ArenaAllocator(size_t capacity) : capacity_(capacity / kAlignment * kAlignment) {
  if (capacity_) insert_free(0, capacity_);
}

size_t ArenaAllocator::rounded(size_t bytes) {
  size_t b = bytes ? bytes : 1;
  return (b + kAlignment - 1) / kAlignment * kAlignment;
}

std::optional<size_t> ArenaAllocator::allocate(size_t bytes) {
  if (bytes > capacity_) return std::nullopt;  // and rounded() cannot wrap around
  size_t size = rounded(bytes);
  auto fit = by_size_.lower_bound({size, 0});
  if (fit == by_size_.end()) return std::nullopt;
  size_t offset = fit->second, free_size = fit->first;
  erase_free(by_offset_.find(offset));
  if (free_size > size) insert_free(offset + size, free_size - size);
  live_ += size;
  return offset;
}

void ArenaAllocator::deallocate(size_t offset, size_t bytes) {
  size_t size = rounded(bytes);
  TF_CHECK(offset % kAlignment == 0 && offset + size <= capacity_ && size <= live_,
           "arena: freeing a range it never handed out (offset ", offset, ", ", size, " bytes)");
  live_ -= size;
  auto next = by_offset_.lower_bound(offset);
  TF_CHECK(next == by_offset_.end() || next->first >= offset + size, "arena: range freed twice");
  if (next != by_offset_.end() && next->first == offset + size) {
    size += next->second;
    erase_free(next);
  }
  auto after = by_offset_.lower_bound(offset);
  if (after != by_offset_.begin()) {
    auto prev = std::prev(after);
    TF_CHECK(prev->first + prev->second <= offset, "arena: range freed twice");
    if (prev->first + prev->second == offset) {
      offset = prev->first;
      size += prev->second;
      erase_free(prev);
    }
  }
  insert_free(offset, size);
}

void ArenaAllocator::grow(size_t capacity) {
  size_t old = capacity_;
  capacity = capacity / kAlignment * kAlignment;
  TF_CHECK(capacity >= old, "arena: it only grows (", old, " -> ", capacity, " bytes)");
  if (capacity == old) return;
  capacity_ = capacity;
  live_ += capacity - old;  // the tail, as if handed out, then freed: it merges like any freed range
  deallocate(old, capacity - old);
}

size_t ArenaAllocator::largest_free() const { return by_size_.empty() ? 0 : by_size_.rbegin()->first; }

void ArenaAllocator::insert_free(size_t offset, size_t size) {
  by_offset_.emplace(offset, size);
  by_size_.emplace(size, offset);
}

void ArenaAllocator::erase_free(std::map<size_t, size_t>::iterator it) {
  by_size_.erase({it->second, it->first});
  by_offset_.erase(it);
}

}  // namespace tf
