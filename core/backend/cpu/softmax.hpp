// CPU softmax and log-softmax over rows. NaN propagates: a row holding NaN comes out NaN.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

#include "backend/cpu/simd.hpp"

namespace tf::cpu {

// log sum exp of one row; NaN when the row holds NaN.
template <class A>
float row_logsumexp(const float* x, int64_t cols) {
  float m = -std::numeric_limits<float>::infinity();
  bool nan = false;
  for (int64_t c = 0; c < cols; ++c) {
    nan = nan || std::isnan(x[c]);
    m = x[c] > m ? x[c] : m;
  }
  if (nan) return std::numeric_limits<float>::quiet_NaN();
  if (std::isinf(m)) return m;
  float s = 0;
  for (int64_t c = 0; c < cols; ++c) s += std::exp(x[c] - m);
  return m + std::log(s);
}

template <class A>
void softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    float lse = row_logsumexp<A>(x + r * cols, cols);
    for (int64_t c = 0; c < cols; ++c) y[r * cols + c] = std::exp(x[r * cols + c] - lse);
  }
}

template <class A>
void softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    float dot = 0;
    for (int64_t c = 0; c < cols; ++c) dot += y[r * cols + c] * dy[r * cols + c];
    for (int64_t c = 0; c < cols; ++c) dx[r * cols + c] = y[r * cols + c] * (dy[r * cols + c] - dot);
  }
}

template <class A>
void log_softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    float lse = row_logsumexp<A>(x + r * cols, cols);
    for (int64_t c = 0; c < cols; ++c) y[r * cols + c] = x[r * cols + c] - lse;
  }
}

template <class A>
void log_softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    float s = 0;
    for (int64_t c = 0; c < cols; ++c) s += dy[r * cols + c];
    for (int64_t c = 0; c < cols; ++c) dx[r * cols + c] = dy[r * cols + c] - std::exp(y[r * cols + c]) * s;
  }
}

}  // namespace tf::cpu
