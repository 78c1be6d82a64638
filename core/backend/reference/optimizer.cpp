// Reference optimizer steps: the per-parameter update that the CUDA kernels share (optimizer_update.hpp),
// skipped whole when a step-log guard says so, on gradients times the guard's clip factor.
#include "backend/optimizer_update.hpp"
#include "backend/reference/kernels.hpp"

namespace tf::ref {

void adam_step(float* param, const float* grad, float* m, float* v, size_t n, const AdamArgs& a) {
  if (!guard_keeps(a.guard)) return;
  AdamStep s = adam_step_constants(a);
  float coef = guard_coefficient(a.guard);
  for (size_t i = 0; i < n; ++i) adam_update(param[i], grad[i] * coef, m[i], v[i], a, s);
}

void sgd_step(float* param, const float* grad, float* momentum, size_t n, const SgdArgs& a) {
  if (!guard_keeps(a.guard)) return;
  float coef = guard_coefficient(a.guard);
  for (size_t i = 0; i < n; ++i) sgd_update(param[i], grad[i] * coef, momentum[i], a);
}

}  // namespace tf::ref
