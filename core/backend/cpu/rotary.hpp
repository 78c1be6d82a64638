// CPU rotary position embedding over rows of [B*T, cols]. The angles depend only on the position and the
// pair index, so each block of frequencies gets its cosines and sines once per position and serves every
// batch row and head group at that position. Angles and products are in double, as in the reference.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "backend/cpu/parallel.hpp"
#include "backend/cpu/simd.hpp"

namespace tf::cpu {

constexpr int64_t kRotaryFreqBlock = 32;  // pairs whose cos/sin sit on the stack at once

// Rotates pairs f0 .. f0+nf-1 of every head group of one row by the given cos/sin.
template <class A>
void rotate_pairs(const float* xr, float* yr, int64_t head_dim, int64_t rotate_cols, int64_t f0, int64_t nf,
                  const double* cs, const double* sn) {
  for (int64_t g = 0; g < rotate_cols; g += head_dim) {
    const float* xp = xr + g + 2 * f0;
    float* yp = yr + g + 2 * f0;
    for (int64_t i = 0; i < nf; ++i) {
      double x0 = xp[2 * i], x1 = xp[2 * i + 1];
      yp[2 * i] = static_cast<float>(x0 * cs[i] - x1 * sn[i]);
      yp[2 * i + 1] = static_cast<float>(x0 * sn[i] + x1 * cs[i]);
    }
  }
}

template <class A>
void rotary_rows(const float* x, float* y, int64_t T, int64_t cols, int64_t head_dim, int64_t rotate_cols,
                 int64_t pos_offset, bool inverse, int64_t row0, int64_t row1) {
  for (int64_t r = row0; r < row1; ++r)
    if (rotate_cols < cols)
      std::memcpy(y + r * cols + rotate_cols, x + r * cols + rotate_cols,
                  static_cast<size_t>(cols - rotate_cols) * sizeof(float));
  double inv_freq[kRotaryFreqBlock], cs[kRotaryFreqBlock], sn[kRotaryFreqBlock];
  int64_t half = head_dim / 2;
  for (int64_t f0 = 0; f0 < half; f0 += kRotaryFreqBlock) {
    int64_t nf = half - f0 < kRotaryFreqBlock ? half - f0 : kRotaryFreqBlock;
    for (int64_t i = 0; i < nf; ++i)
      inv_freq[i] = std::pow(10000.0, -2.0 * static_cast<double>(f0 + i) / static_cast<double>(head_dim));
    // Each position once: the first T rows of the range hold every position that occurs in it.
    for (int64_t r = row0; r < row1 && r < row0 + T; ++r) {
      double pos = static_cast<double>(pos_offset + r % T);
      for (int64_t i = 0; i < nf; ++i) {
        double theta = pos * inv_freq[i];
        cs[i] = std::cos(theta);
        sn[i] = inverse ? -std::sin(theta) : std::sin(theta);
      }
      for (int64_t rr = r; rr < row1; rr += T)
        rotate_pairs<A>(x + rr * cols, y + rr * cols, head_dim, rotate_cols, f0, nf, cs, sn);
    }
  }
}

// ---- the kernels of kernels.hpp, spread over the thread pool ----

template <class A>
void rotary_forward(const float* x, float* y, int64_t B, int64_t T, int64_t cols, int64_t head_dim,
                    int64_t rotate_cols, int64_t pos_offset, bool inverse) {
  for_rows(B * T, cols, [&](int64_t r0, int64_t r1) {
    rotary_rows<A>(x, y, T, cols, head_dim, rotate_cols, pos_offset, inverse, r0, r1);
  });
}

}  // namespace tf::cpu
