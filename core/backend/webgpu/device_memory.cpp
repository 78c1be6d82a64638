// The WebGPU backend's memory: ranges of the arena (one GPUBuffer) handed out by ArenaAllocator, uploads,
// reads, and device-to-device copies as the `copy` kernel of elementwise.wgsl (copyBufferToBuffer cannot copy
// within one buffer). Copies keep memmove's meaning: overlapping ranges go through a scratch range, since
// the kernel's threads run in any order. The arena grows when a range does not fit (doubled, or by the
// range), up to the device's limit; past it the run fails as a WebGPU error and the page hands it to wasm.
#include <algorithm>
#include <cstdint>

#include "backend/arena_allocator.hpp"
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/elementwise.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/scratch.hpp"
#include "util/error.hpp"

namespace tf::webgpu {

namespace {

ArenaAllocator& arena() {
  // Never destroyed: tensors held in statics are freed after main returns.
  static ArenaAllocator* a = new ArenaAllocator(arena_bytes());
  return *a;
}

// Grows the arena so that `bytes` fit at its end; false when the device allows no more.
bool grow_to_fit(size_t bytes) {
  uint64_t have = arena().capacity(), limit = arena_limit();
  if (bytes > limit) return false;
  uint64_t want = std::min(limit, std::max(2 * have, have + ArenaAllocator::rounded(bytes)));
  if (want <= have) return false;
  grow_arena(static_cast<size_t>(want));
  arena().grow(static_cast<size_t>(want));
  return true;
}

bool overlaps(const void* a, const void* b, size_t bytes) {
  auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + bytes && y < x + bytes;
}

}  // namespace

void* allocate(size_t bytes) {
  std::optional<size_t> offset = arena().allocate(bytes);
  if (!offset && grow_to_fit(bytes)) offset = arena().allocate(bytes);
  if (!offset)
    fail("WebGPU out of memory: no free range of ", (bytes + 1023) >> 10, " KiB in the ",
         arena().capacity() >> 20, " MiB arena (", arena().live_bytes() >> 20,
         " MiB in use; the device allows ", arena_limit() >> 20, " MiB)");
  return device_pointer(*offset);
}

void deallocate(void* p, size_t bytes) {
  if (p) arena().deallocate(arena_offset(p), bytes);
}

void copy_from_host(void* dst, const void* src, size_t bytes) { write(dst, src, bytes); }

void copy_to_host(void* dst, const void* src, size_t bytes) { read(dst, src, bytes); }

void copy(void* dst, const void* src, size_t bytes) {
  if (bytes == 0 || dst == src) return;
  TF_CHECK(bytes % 4 == 0, "WebGPU copies whole 4-byte words (", bytes, " bytes asked)");
  size_t words = bytes / 4;
  if (!overlaps(dst, src, bytes)) return copy_words(dst, src, words);
  Scratch<float> staging(words);
  copy_words(staging.get(), src, words);
  copy_words(dst, staging.get(), words);
}

void synchronize() { flush(); }

}  // namespace tf::webgpu
