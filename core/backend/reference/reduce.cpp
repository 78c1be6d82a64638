// Reference reductions, in double.
#include <cmath>

#include "backend/reference/kernels.hpp"

namespace tf::ref {

void sum(const float* x, size_t n, float* out) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) s += x[i];
  out[0] = static_cast<float>(s);
}

void sum_squares(const float* x, size_t n, float* out) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) s += static_cast<double>(x[i]) * x[i];
  out[0] = static_cast<float>(s);
}

void sum_rows(const float* x, float* out, int64_t rows, int64_t cols, bool accumulate) {
  for (int64_t c = 0; c < cols; ++c) {
    double s = accumulate ? out[c] : 0.0;
    for (int64_t r = 0; r < rows; ++r) s += x[r * cols + c];
    out[c] = static_cast<float>(s);
  }
}

bool all_finite(const float* x, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i])) return false;
  return true;
}

}  // namespace tf::ref
