// One parameter's optimizer update, shared by the reference kernels and the CUDA kernels (compiled for the
// device there) so that both follow PyTorch 1.13's single-tensor Adam/AdamW and SGD in the same order: in
// double, with m, v and the momentum rounded to float before they are used, as PyTorch stores them. Also the
// step guard (every backend's step_guard and the optimizers' reading of a step-log row) and its clip factor
// in float, as torch.nn.utils.clip_grad_norm_ works it out.
#pragma once
#include <cmath>

#include "backend/kernels.hpp"

#if defined(__CUDACC__)
#define TF_HOST_DEVICE __host__ __device__
#else
#define TF_HOST_DEVICE
#endif

namespace tf {

// Whether a step-log row lets the update run, and the factor its gradients get (no row: run, factor 1).
TF_HOST_DEVICE inline bool guard_keeps(const float* guard) { return !guard || guard[kStepKeep] != 0.f; }
TF_HOST_DEVICE inline float guard_coefficient(const float* guard) { return guard ? guard[kStepCoef] : 1.f; }

// Finite (not NaN, not infinite) without a library call, so host and device code share it.
TF_HOST_DEVICE inline bool finite_float(float x) { return x >= -3.40282347e38f && x <= 3.40282347e38f; }

// Fills a step-log row: see step_guard in kernels.hpp. The squares are added in double in index order.
TF_HOST_DEVICE inline void step_guard_row(const float* squares, size_t n, float loss, float report_scale,
                                          float max_norm, float* out) {
  double total = 0.0;
  for (size_t i = 0; i < n; ++i) total += squares[i];
  bool loss_finite = finite_float(loss);
  float norm = loss_finite ? static_cast<float>(sqrt(total)) : static_cast<float>(NAN);
  bool keep = loss_finite && finite_float(norm);
  float coef = max_norm / (norm + 1e-6f);
  out[kStepLoss] = loss * report_scale;
  out[kStepNorm] = norm;
  out[kStepKeep] = keep ? 1.f : 0.f;
  out[kStepCoef] = keep && coef < 1.f ? coef : 1.f;
}

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
