// Reference rotary embedding: pairs (2i, 2i+1) of each head rotate by (pos_offset + t) *
// 10000^(-2i/head_dim).
#include <cmath>

#include "backend/reference/kernels.hpp"

namespace tf::ref {

void rotary_forward(const float* x, float* y, int64_t B, int64_t T, int64_t cols, int64_t head_dim,
                    int64_t rotate_cols, int64_t pos_offset, bool inverse) {
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t t = 0; t < T; ++t) {
      const float* xr = x + (b * T + t) * cols;
      float* yr = y + (b * T + t) * cols;
      for (int64_t c = rotate_cols; c < cols; ++c) yr[c] = xr[c];
      for (int64_t c = 0; c < rotate_cols; c += 2) {
        int64_t i = (c % head_dim) / 2;
        double theta = static_cast<double>(pos_offset + t) *
                       std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(head_dim));
        double cs = std::cos(theta), sn = inverse ? -std::sin(theta) : std::sin(theta);
        yr[c] = static_cast<float>(xr[c] * cs - xr[c + 1] * sn);
        yr[c + 1] = static_cast<float>(xr[c] * sn + xr[c + 1] * cs);
      }
    }
  }
}

}  // namespace tf::ref
