// What the row-wise WebGPU stems share: a row kernel runs one workgroup per row, stepping by the group
// count past the 65535 limit of a dispatch dimension (flat kernels use dispatch_1d's grid instead), and
// sizes and element offsets travel as u32 in the shaders' Params (no index into the arena exceeds 2^32).
#pragma once
#include <algorithm>
#include <cstdint>

#include "util/error.hpp"

namespace tf::webgpu {

// A size of a kernel's operands as a shader parameter.
inline uint32_t u32(int64_t v) {
  TF_CHECK(v >= 0 && v <= static_cast<int64_t>(UINT32_MAX), "WebGPU kernel size out of range: ", v);
  return static_cast<uint32_t>(v);
}

// Workgroups for a row kernel over `rows` rows (the shader loops r += num_workgroups.x).
inline uint32_t row_groups(int64_t rows) {
  return static_cast<uint32_t>(std::clamp<int64_t>(rows, 1, 65535));
}

}  // namespace tf::webgpu
