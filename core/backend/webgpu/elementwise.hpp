// The device-to-device word copy of elementwise.wgsl, for device_memory.cpp's `copy` (ranges that do not
// overlap; copy() itself handles overlap).
#pragma once
#include <cstddef>

namespace tf::webgpu {

void copy_words(void* dst, const void* src, size_t words);

}  // namespace tf::webgpu
