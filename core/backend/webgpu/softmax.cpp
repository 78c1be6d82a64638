// Softmax and log-softmax on WebGPU: one workgroup per row (softmax.wgsl).
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"

namespace tf::webgpu {

namespace {

struct SoftmaxParams {
  uint32_t in, dy, out, rows, cols, pad[3];
};
static_assert(sizeof(SoftmaxParams) == 32);

void run_rows(Pipeline pipeline, const float* in, const float* dy, float* out, int64_t rows, int64_t cols) {
  if (rows <= 0 || cols <= 0) return;
  u32(rows * cols);
  SoftmaxParams p{word(in), dy ? word(dy) : 0, word(out), u32(rows), u32(cols), {}};
  dispatch(pipeline, p, {row_groups(rows)});
}

}  // namespace

void softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  run_rows(Pipeline::softmax_forward, x, nullptr, y, rows, cols);
}

void softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  run_rows(Pipeline::softmax_backward, y, dy, dx, rows, cols);
}

void log_softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  run_rows(Pipeline::log_softmax_forward, x, nullptr, y, rows, cols);
}

void log_softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  run_rows(Pipeline::log_softmax_backward, y, dy, dx, rows, cols);
}

}  // namespace tf::webgpu
