// Optimizer steps, one thread per parameter, each running the reference's own update
// (backend/optimizer_update.hpp: PyTorch 1.13's single-tensor Adam, AdamW and SGD in double). A step-log
// guard is read by every thread from device memory: the host never learns whether the step updated.
#include "backend/cuda/common.cuh"
#include "backend/cuda/kernels.cuh"
#include "backend/optimizer_update.hpp"

namespace tf::cuda {

namespace {

__global__ void adam_kernel(float* param, const float* grad, float* m, float* v, int64_t n, AdamArgs a,
                            AdamStep s) {
  if (!guard_keeps(a.guard)) return;
  float coef = guard_coefficient(a.guard);
  for (int64_t i = flat_begin(); i < n; i += flat_stride())
    adam_update(param[i], grad[i] * coef, m[i], v[i], a, s);
}

__global__ void sgd_kernel(float* param, const float* grad, float* momentum, int64_t n, SgdArgs a) {
  if (!guard_keeps(a.guard)) return;
  float coef = guard_coefficient(a.guard);
  for (int64_t i = flat_begin(); i < n; i += flat_stride())
    sgd_update(param[i], grad[i] * coef, momentum[i], a);
}

}  // namespace

void adam_step(float* param, const float* grad, float* m, float* v, size_t n, const AdamArgs& a) {
  if (!n) return;
  adam_kernel<<<flat_blocks(static_cast<int64_t>(n)), kThreads>>>(param, grad, m, v, static_cast<int64_t>(n),
                                                                  a, adam_step_constants(a));
  TF_CUDA_LAUNCHED("adam_kernel");
}

void sgd_step(float* param, const float* grad, float* momentum, size_t n, const SgdArgs& a) {
  if (!n) return;
  sgd_kernel<<<flat_blocks(static_cast<int64_t>(n)), kThreads>>>(param, grad, momentum,
                                                                 static_cast<int64_t>(n), a);
  TF_CUDA_LAUNCHED("sgd_kernel");
}

}  // namespace tf::cuda
