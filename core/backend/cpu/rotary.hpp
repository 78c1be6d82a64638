// CPU rotary position embedding over rows of [B*T, cols].
#pragma once
#include <cmath>
#include <cstdint>

#include "backend/cpu/simd.hpp"

namespace tf::cpu {

template <class A>
void rotary_rows(const float* x, float* y, int64_t T, int64_t cols, int64_t head_dim, int64_t rotate_cols,
                 int64_t pos_offset, bool inverse, int64_t row0, int64_t row1) {
  for (int64_t r = row0; r < row1; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    double pos = static_cast<double>(pos_offset + r % T);
    for (int64_t c = rotate_cols; c < cols; ++c) yr[c] = xr[c];
    for (int64_t c = 0; c < rotate_cols; c += 2) {
      int64_t i = (c % head_dim) / 2;
      double theta = pos * std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(head_dim));
      float cs = static_cast<float>(std::cos(theta));
      float sn = static_cast<float>(inverse ? -std::sin(theta) : std::sin(theta));
      float x0 = xr[c], x1 = xr[c + 1];
      yr[c] = x0 * cs - x1 * sn;
      yr[c + 1] = x0 * sn + x1 * cs;
    }
  }
}

}  // namespace tf::cpu
