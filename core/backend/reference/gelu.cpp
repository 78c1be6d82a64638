// Reference GELU: exact erf form and GPT-2's tanh approximation, with their slopes, in double.
#include <cmath>

#include "backend/reference/kernels.hpp"

namespace tf::ref {

namespace {
constexpr double kSqrt2OverPi = 0.7978845608028654;
constexpr double kInvSqrt2 = 0.7071067811865476;
constexpr double kInvSqrt2Pi = 0.3989422804014327;
constexpr double kCubic = 0.044715;
}  // namespace

void gelu_forward(const float* x, float* y, float* slope, size_t n, GeluMode mode) {
  for (size_t i = 0; i < n; ++i) {
    double v = x[i];
    if (mode == GeluMode::Erf) {
      double cdf = 0.5 * (1 + std::erf(v * kInvSqrt2));
      y[i] = static_cast<float>(v * cdf);
      if (slope) slope[i] = static_cast<float>(cdf + v * kInvSqrt2Pi * std::exp(-0.5 * v * v));
    } else {
      double t = std::tanh(kSqrt2OverPi * (v + kCubic * v * v * v));
      y[i] = static_cast<float>(0.5 * v * (1 + t));
      if (slope)
        slope[i] = static_cast<float>(0.5 * (1 + t) +
                                      0.5 * v * (1 - t * t) * kSqrt2OverPi * (1 + 3 * kCubic * v * v));
    }
  }
}

}  // namespace tf::ref
