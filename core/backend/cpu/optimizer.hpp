// CPU optimizer steps (PyTorch 1.13 formulas) over flat parameter ranges.
#pragma once
#include <cmath>
#include <cstddef>

#include "backend/backend.hpp"
#include "backend/cpu/simd.hpp"

namespace tf::cpu {

template <class A>
void adam_step(float* param, const float* grad, float* m, float* v, size_t n, const AdamArgs& a) {
  float step_size = a.lr / a.bias_correction1;
  float bc2_sqrt = std::sqrt(a.bias_correction2);
  float decay = a.decoupled ? 1.f - a.lr * a.weight_decay : 1.f;
  float l2 = a.decoupled ? 0.f : a.weight_decay;
  for (size_t i = 0; i < n; ++i) {
    float p = param[i] * decay;
    float g = grad[i] + l2 * param[i];
    m[i] = a.beta1 * m[i] + (1.f - a.beta1) * g;
    v[i] = a.beta2 * v[i] + (1.f - a.beta2) * g * g;
    param[i] = p - step_size * m[i] / (std::sqrt(v[i]) / bc2_sqrt + a.eps);
  }
}

template <class A>
void sgd_step(float* param, const float* grad, float* momentum, size_t n, const SgdArgs& a) {
  for (size_t i = 0; i < n; ++i) {
    float g = grad[i] + a.weight_decay * param[i];
    if (a.momentum != 0.f) {
      momentum[i] = a.first_step ? g : a.momentum * momentum[i] + g;
      g = momentum[i];
    }
    param[i] -= a.lr * g;
  }
}

}  // namespace tf::cpu
