// Adam/AdamW and SGD on WebGPU (optimizer.wgsl): the per-step constants are formed here in double, as
// optimizer_update.hpp forms them for the reference, and handed to a flat f32 kernel. A step-log guard row
// is read by every invocation from the arena (keep flag, clip factor): the host never learns the outcome.
#include "backend/optimizer_update.hpp"
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"

namespace tf::webgpu {

namespace {

struct OptimizerParams {
  uint32_t param, grad, m, v, n, decoupled, has_momentum, first_step;
  float beta1, one_minus_beta1, beta2, one_minus_beta2, eps, step_size, bc2_sqrt, weight_decay, decay;
  uint32_t guard, has_guard;  // the step-log row's word, and whether there is one
  float pad1;
};
static_assert(sizeof(OptimizerParams) == 80);

}  // namespace

void adam_step(float* param, const float* grad, float* m, float* v, size_t n, const AdamArgs& a) {
  if (n == 0) return;
  AdamStep s = adam_step_constants(a);
  OptimizerParams p{};
  p.param = word(param), p.grad = word(grad), p.m = word(m), p.v = word(v);
  p.n = u32(static_cast<int64_t>(n));
  p.decoupled = a.decoupled ? 1u : 0u;
  p.beta1 = a.beta1, p.one_minus_beta1 = static_cast<float>(1.0 - a.beta1);
  p.beta2 = a.beta2, p.one_minus_beta2 = static_cast<float>(1.0 - a.beta2);
  p.eps = a.eps;
  p.step_size = static_cast<float>(s.step_size);
  p.bc2_sqrt = static_cast<float>(s.bc2_sqrt);
  p.weight_decay = a.decoupled ? 0.f : a.weight_decay;
  p.decay = static_cast<float>(1.0 - static_cast<double>(a.lr) * a.weight_decay);
  p.has_guard = a.guard ? 1u : 0u;
  p.guard = a.guard ? word(a.guard) : 0u;
  dispatch_1d(Pipeline::adam_step, p, n);
}

void sgd_step(float* param, const float* grad, float* momentum, size_t n, const SgdArgs& a) {
  if (n == 0) return;
  OptimizerParams p{};
  p.param = word(param), p.grad = word(grad);
  p.has_momentum = a.momentum != 0.f ? 1u : 0u;  // else the buffer may be null
  p.m = p.has_momentum ? word(momentum) : 0u;
  p.n = u32(static_cast<int64_t>(n));
  p.first_step = a.first_step ? 1u : 0u;
  p.beta1 = a.momentum;
  p.step_size = a.lr;
  p.weight_decay = a.weight_decay;
  p.has_guard = a.guard ? 1u : 0u;
  p.guard = a.guard ? word(a.guard) : 0u;
  dispatch_1d(Pipeline::sgd_step, p, n);
}

}  // namespace tf::webgpu
