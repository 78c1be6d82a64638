// Reference softmax and log-softmax over rows, in double. A NaN anywhere in a row makes the row NaN.
#include <cmath>
#include <limits>

#include "backend/reference/kernels.hpp"

namespace tf::ref {

// log sum exp of a row; NaN if any element is NaN.
double row_lse(const float* x, int64_t cols) {
  double m = -std::numeric_limits<double>::infinity();
  for (int64_t c = 0; c < cols; ++c) {
    if (std::isnan(x[c])) return std::numeric_limits<double>::quiet_NaN();
    m = std::max(m, static_cast<double>(x[c]));
  }
  if (std::isinf(m)) return m;
  double s = 0;
  for (int64_t c = 0; c < cols; ++c) s += std::exp(x[c] - m);
  return m + std::log(s);
}

void softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    double lse = row_lse(x + r * cols, cols);
    for (int64_t c = 0; c < cols; ++c) y[r * cols + c] = static_cast<float>(std::exp(x[r * cols + c] - lse));
  }
}

void softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    double dot = 0;
    for (int64_t c = 0; c < cols; ++c) dot += static_cast<double>(y[r * cols + c]) * dy[r * cols + c];
    for (int64_t c = 0; c < cols; ++c)
      dx[r * cols + c] = static_cast<float>(y[r * cols + c] * (dy[r * cols + c] - dot));
  }
}

void log_softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    double lse = row_lse(x + r * cols, cols);
    for (int64_t c = 0; c < cols; ++c) y[r * cols + c] = static_cast<float>(x[r * cols + c] - lse);
  }
}

void log_softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0;
    for (int64_t c = 0; c < cols; ++c) s += dy[r * cols + c];
    for (int64_t c = 0; c < cols; ++c)
      dx[r * cols + c] =
          static_cast<float>(dy[r * cols + c] - std::exp(static_cast<double>(y[r * cols + c])) * s);
  }
}

}  // namespace tf::ref
