// Softmax and log-softmax over rows: one block per row (row_softmax.cuh), the backward passes likewise
// with one block-wide dot product per row.
#include "backend/cuda/kernels.cuh"
#include "backend/cuda/row_softmax.cuh"

namespace tf::cuda {

namespace {

template <bool Log>
__global__ void softmax_forward_kernel(const float* x, float* y, int64_t cols) {
  const float* xr = x + blockIdx.x * cols;
  float* yr = y + blockIdx.x * cols;
  float lse = block_row_lse(xr, cols);
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = Log ? xr[c] - lse : expf(xr[c] - lse);
}

// softmax: dx = y * (dy - sum(y * dy)); log-softmax: dx = dy - exp(y) * sum(dy).
template <bool Log>
__global__ void softmax_backward_kernel(const float* y, const float* dy, float* dx, int64_t cols) {
  int64_t base = blockIdx.x * cols;
  float s = 0;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
    s += Log ? dy[base + c] : y[base + c] * dy[base + c];
  s = block_sum(s);
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
    dx[base + c] = Log ? dy[base + c] - expf(y[base + c]) * s : y[base + c] * (dy[base + c] - s);
}

template <bool Log>
void launch_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  if (rows <= 0 || cols <= 0) return;
  softmax_forward_kernel<Log><<<static_cast<unsigned>(rows), row_threads(cols)>>>(x, y, cols);
  TF_CUDA_LAUNCHED("softmax_forward_kernel");
}

template <bool Log>
void launch_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  if (rows <= 0 || cols <= 0) return;
  softmax_backward_kernel<Log><<<static_cast<unsigned>(rows), row_threads(cols)>>>(y, dy, dx, cols);
  TF_CUDA_LAUNCHED("softmax_backward_kernel");
}

}  // namespace

void softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  launch_forward<false>(x, y, rows, cols);
}

void softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  launch_backward<false>(y, dy, dx, rows, cols);
}

void log_softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  launch_forward<true>(x, y, rows, cols);
}

void log_softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  launch_backward<true>(y, dy, dx, rows, cols);
}

}  // namespace tf::cuda
