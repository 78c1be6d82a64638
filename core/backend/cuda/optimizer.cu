// Optimizer steps, one thread per parameter, following the reference (PyTorch 1.13's single-tensor Adam,
// AdamW and SGD) line by line in double, including where it rounds m and v to float before using them.
#include "backend/cuda/common.cuh"
#include "backend/cuda/kernels.cuh"

namespace tf::cuda {

namespace {

__global__ void adam_kernel(float* param, const float* grad, float* m, float* v, int64_t n, AdamArgs a) {
  double step_size = a.lr / static_cast<double>(a.bias_correction1);
  double bc2_sqrt = sqrt(static_cast<double>(a.bias_correction2));
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) {
    double p = param[i], g = grad[i];
    if (a.decoupled)
      p *= 1.0 - static_cast<double>(a.lr) * a.weight_decay;
    else if (a.weight_decay != 0.f)
      g += static_cast<double>(a.weight_decay) * p;
    float mi = static_cast<float>(a.beta1 * static_cast<double>(m[i]) + (1.0 - a.beta1) * g);
    float vi = static_cast<float>(a.beta2 * static_cast<double>(v[i]) + (1.0 - a.beta2) * g * g);
    m[i] = mi;
    v[i] = vi;
    double denom = sqrt(static_cast<double>(vi)) / bc2_sqrt + a.eps;
    param[i] = static_cast<float>(p - step_size * mi / denom);
  }
}

__global__ void sgd_kernel(float* param, const float* grad, float* momentum, int64_t n, SgdArgs a) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) {
    double g = grad[i] + static_cast<double>(a.weight_decay) * param[i];
    if (a.momentum != 0.f) {
      double buf = a.first_step ? g : a.momentum * static_cast<double>(momentum[i]) + g;
      momentum[i] = static_cast<float>(buf);
      g = buf;
    }
    param[i] = static_cast<float>(param[i] - a.lr * g);
  }
}

}  // namespace

void adam_step(float* param, const float* grad, float* m, float* v, size_t n, const AdamArgs& a) {
  if (!n) return;
  adam_kernel<<<flat_blocks(static_cast<int64_t>(n)), kThreads>>>(param, grad, m, v, static_cast<int64_t>(n),
                                                                  a);
  TF_CUDA_LAUNCHED("adam_kernel");
}

void sgd_step(float* param, const float* grad, float* momentum, size_t n, const SgdArgs& a) {
  if (!n) return;
  sgd_kernel<<<flat_blocks(static_cast<int64_t>(n)), kThreads>>>(param, grad, momentum,
                                                                 static_cast<int64_t>(n), a);
  TF_CUDA_LAUNCHED("sgd_kernel");
}

}  // namespace tf::cuda
