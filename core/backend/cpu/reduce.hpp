// CPU reductions: sums (double partials per chunk), column sums, finiteness.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "backend/cpu/simd.hpp"

namespace tf::cpu {

template <class A>
double sum(const float* x, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) s += x[i];
  return s;
}

template <class A>
double sum_squares(const float* x, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) s += static_cast<double>(x[i]) * x[i];
  return s;
}

template <class A>
void sum_rows(const float* x, float* out, int64_t rows, int64_t cols, int64_t c0, int64_t c1, bool accumulate) {
  for (int64_t c = c0; c < c1; ++c) {
    float s = accumulate ? out[c] : 0.f;
    for (int64_t r = 0; r < rows; ++r) s += x[r * cols + c];
    out[c] = s;
  }
}

template <class A>
bool all_finite(const float* x, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i])) return false;
  return true;
}

}  // namespace tf::cpu
