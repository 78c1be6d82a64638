// One parameter's optimizer update, shared by the reference kernels and the CUDA kernels (compiled for the
// device there) so that both follow PyTorch 1.13's single-tensor Adam/AdamW and SGD in the same order: in
// double, with m, v and the momentum rounded to float before they are used, as PyTorch stores them.
#pragma once
#include <cmath>

#include "backend/kernels.hpp"

#if defined(__CUDACC__)
#define TF_HOST_DEVICE __host__ __device__
#else
#define TF_HOST_DEVICE
#endif

namespace tf {

// The per-step constants of Adam: lr / (1 - beta1^t) and sqrt(1 - beta2^t).
struct AdamStep {
  double step_size, bc2_sqrt;
};

inline AdamStep adam_step_constants(const AdamArgs& a) {
  return {a.lr / static_cast<double>(a.bias_correction1), std::sqrt(static_cast<double>(a.bias_correction2))};
}

TF_HOST_DEVICE inline void adam_update(float& param, float grad, float& m, float& v, const AdamArgs& a,
                                       AdamStep s) {
  double p = param, g = grad;
  if (a.decoupled)
    p *= 1.0 - static_cast<double>(a.lr) * a.weight_decay;
  else if (a.weight_decay != 0.f)
    g += static_cast<double>(a.weight_decay) * p;
  m = static_cast<float>(a.beta1 * static_cast<double>(m) + (1.0 - a.beta1) * g);
  v = static_cast<float>(a.beta2 * static_cast<double>(v) + (1.0 - a.beta2) * g * g);
  double denom = sqrt(static_cast<double>(v)) / s.bc2_sqrt + a.eps;
  param = static_cast<float>(p - s.step_size * m / denom);
}

TF_HOST_DEVICE inline void sgd_update(float& param, float grad, float& momentum, const SgdArgs& a) {
  double g = grad + static_cast<double>(a.weight_decay) * param;
  if (a.momentum != 0.f) {
    double buf = a.first_step ? g : a.momentum * static_cast<double>(momentum) + g;
    momentum = static_cast<float>(buf);
    g = buf;
  }
  param = static_cast<float>(param - a.lr * g);
}

}  // namespace tf
