// CPU GELU, exact (erf) and tanh forms.
#pragma once
#include <cmath>
#include <cstddef>

#include "backend/backend.hpp"
#include "backend/cpu/simd.hpp"

namespace tf::cpu {

template <class A>
void gelu_forward(const float* x, float* y, size_t n, GeluMode mode) {
  for (size_t i = 0; i < n; ++i) {
    float v = x[i];
    y[i] = mode == GeluMode::Erf ? 0.5f * v * (1.f + std::erf(v * 0.70710678f))
                                 : 0.5f * v * (1.f + std::tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
}

template <class A>
void gelu_backward(const float* x, const float* dy, float* dx, size_t n, GeluMode mode) {
  for (size_t i = 0; i < n; ++i) {
    float v = x[i], d;
    if (mode == GeluMode::Erf) {
      d = 0.5f * (1.f + std::erf(v * 0.70710678f)) + v * 0.39894228f * std::exp(-0.5f * v * v);
    } else {
      float t = std::tanh(0.7978845608f * (v + 0.044715f * v * v * v));
      d = 0.5f * (1.f + t) + 0.5f * v * (1.f - t * t) * 0.7978845608f * (1.f + 3.f * 0.044715f * v * v);
    }
    dx[i] = d * dy[i];
  }
}

}  // namespace tf::cpu
