// Reference optimizer steps, following PyTorch 1.13's single-tensor Adam/AdamW and SGD line by line.
#include <cmath>

#include "backend/reference/kernels.hpp"

namespace tf::ref {

void adam_step(float* param, const float* grad, float* m, float* v, size_t n, const AdamArgs& a) {
  double step_size = a.lr / static_cast<double>(a.bias_correction1);
  double bc2_sqrt = std::sqrt(static_cast<double>(a.bias_correction2));
  for (size_t i = 0; i < n; ++i) {
    double p = param[i], g = grad[i];
    if (a.decoupled)
      p *= 1.0 - static_cast<double>(a.lr) * a.weight_decay;
    else if (a.weight_decay != 0.f)
      g += static_cast<double>(a.weight_decay) * p;
    double mi = a.beta1 * static_cast<double>(m[i]) + (1.0 - a.beta1) * g;
    double vi = a.beta2 * static_cast<double>(v[i]) + (1.0 - a.beta2) * g * g;
    m[i] = static_cast<float>(mi);
    v[i] = static_cast<float>(vi);
    double denom = std::sqrt(static_cast<double>(v[i])) / bc2_sqrt + a.eps;
    param[i] = static_cast<float>(p - step_size * m[i] / denom);
  }
}

void sgd_step(float* param, const float* grad, float* momentum, size_t n, const SgdArgs& a) {
  for (size_t i = 0; i < n; ++i) {
    double g = grad[i] + static_cast<double>(a.weight_decay) * param[i];
    if (a.momentum != 0.f) {
      double buf = a.first_step ? g : a.momentum * static_cast<double>(momentum[i]) + g;
      momentum[i] = static_cast<float>(buf);
      g = buf;
    }
    param[i] = static_cast<float>(param[i] - a.lr * g);
  }
}

}  // namespace tf::ref
