// Rotary embedding on WebGPU (rotary.wgsl). WGSL has no f64, so the (cos, sin) of every (position, pair)
// is formed here in double like the reference's angles, uploaded into an arena scratch for the call.
#include <cmath>
#include <vector>

#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"
#include "backend/webgpu/scratch.hpp"

namespace tf::webgpu {

namespace {

struct RotaryParams {
  uint32_t x, y, table, rows, T, cols, head_dim, rotate_cols;
};
static_assert(sizeof(RotaryParams) == 32);

// [T, head_dim / 2, 2]: cos and sin of (pos_offset + t) * 10000^(-2i / head_dim), sin negated if inverse.
std::vector<float> rotation_table(int64_t T, int64_t head_dim, int64_t pos_offset, bool inverse) {
  std::vector<float> table(static_cast<size_t>(T * (head_dim / 2) * 2));
  size_t at = 0;
  for (int64_t t = 0; t < T; ++t) {
    for (int64_t i = 0; i < head_dim / 2; ++i) {
      double theta = static_cast<double>(pos_offset + t) *
                     std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(head_dim));
      table[at++] = static_cast<float>(std::cos(theta));
      table[at++] = static_cast<float>(inverse ? -std::sin(theta) : std::sin(theta));
    }
  }
  return table;
}

}  // namespace

void rotary_forward(const float* x, float* y, int64_t B, int64_t T, int64_t cols, int64_t head_dim,
                    int64_t rotate_cols, int64_t pos_offset, bool inverse) {
  if (B <= 0 || T <= 0 || cols <= 0) return;
  u32(B * T * cols);
  std::vector<float> table = rotation_table(T, head_dim, pos_offset, inverse);
  Scratch<float> device_table(table.size());
  copy_from_host(device_table.get(), table.data(), sizeof(float) * table.size());
  RotaryParams p{word(x),   word(y),       word(device_table.get()), u32(B * T), u32(T),
                 u32(cols), u32(head_dim), u32(rotate_cols)};
  dispatch_1d(Pipeline::rotary_forward, p, static_cast<size_t>(B * T * cols));
}

}  // namespace tf::webgpu
