// The step guard on the device: one thread adds the few dozen sums of squares in double and writes the
// step-log row (backend/optimizer_update.hpp), so the optimizer kernels that follow read it without the host
// ever seeing the loss or the norm.
#include "backend/cuda/common.cuh"
#include "backend/cuda/kernels.cuh"
#include "backend/optimizer_update.hpp"

namespace tf::cuda {

namespace {

__global__ void step_guard_kernel(const float* squares, size_t n, const float* loss, float report_scale,
                                  float max_norm, float* out) {
  step_guard_row(squares, n, loss[0], report_scale, max_norm, out);
}

}  // namespace

void step_guard(const float* squares, size_t n, const float* loss, float report_scale, float max_norm,
                float* out) {
  step_guard_kernel<<<1, 1>>>(squares, n, loss, report_scale, max_norm, out);
  TF_CUDA_LAUNCHED("step_guard_kernel");
}

}  // namespace tf::cuda
