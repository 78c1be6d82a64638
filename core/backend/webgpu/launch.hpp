// What the row-wise WebGPU stems share: a row kernel runs one workgroup per row, stepping by the group
// count past the 65535 limit of a dispatch dimension (flat kernels use dispatch_1d's grid instead), and
// sizes and element offsets travel as u32 in the shaders' Params (no index into the arena exceeds 2^32).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "util/error.hpp"

namespace tf::webgpu {

// A size of a kernel's operands as a shader parameter.
inline uint32_t u32(int64_t v) {
  TF_CHECK(v >= 0 && v <= static_cast<int64_t>(UINT32_MAX), "WebGPU kernel size out of range: ", v);
  return static_cast<uint32_t>(v);
}

// A column-block reduction (common.wgsl: sum_rows, LayerNorm's dgamma and dbeta) gives each column one lane
// per block of 64 rows, up to 256 (a power of two) in a 256-invocation workgroup, and fills the workgroup
// with adjacent columns: block_columns is that number of columns. Beyond 256 blocks the lanes take blocks in
// rounds.
inline uint32_t block_columns(int64_t rows) {
  int64_t lanes = 1;
  while (lanes < 256 && lanes * 64 < rows) lanes *= 2;
  return static_cast<uint32_t>(256 / lanes);
}
inline size_t column_block_invocations(int64_t cols, uint32_t cw) {
  return static_cast<size_t>((cols + cw - 1) / cw) * 256;
}
// The most items one invocation of it adds in a serial loop (Work::rows): per round, a block's rows, or the
// round's block sums for the column's first lane.
inline uint32_t block_walk(int64_t rows) {
  int64_t lanes = 256 / block_columns(rows), blocks = (rows + 63) / 64, rounds = (blocks + lanes - 1) / lanes;
  return static_cast<uint32_t>(rounds *
                               std::max<int64_t>(std::min<int64_t>(rows, 64), std::min(blocks, lanes)));
}

// Workgroups for a row kernel over `rows` rows (the shader loops r += num_workgroups.x).
inline uint32_t row_groups(int64_t rows) {
  return static_cast<uint32_t>(std::clamp<int64_t>(rows, 1, 65535));
}

}  // namespace tf::webgpu
