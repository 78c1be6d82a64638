// Cross-entropy rows: the forward pass keeps each row's log-sum-exp (one block per row); the backward pass
// recomputes softmax from it, one thread per logit, scaled by the row's weight times the loss gradient.
#include "backend/cuda/kernels.cuh"
#include "backend/cuda/row_softmax.cuh"

namespace tf::cuda {

namespace {

__global__ void cross_entropy_forward_kernel(const float* logits, const int32_t* targets, float* loss_rows,
                                             float* lse, int64_t V) {
  int64_t r = blockIdx.x;
  const float* row = logits + r * V;
  float l = block_row_lse(row, V);
  if (threadIdx.x == 0) {
    lse[r] = l;
    loss_rows[r] = l - row[targets[r]];
  }
}

__global__ void cross_entropy_backward_kernel(const float* logits, const int32_t* targets, const float* lse,
                                              const float* row_scale, float* dlogits, int64_t V, int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) {
    int64_t r = i / V, c = i % V;
    float p = expf(logits[i] - lse[r]);
    dlogits[i] = row_scale[r] * (p - (c == targets[r] ? 1.f : 0.f));
  }
}

}  // namespace

void cross_entropy_forward(const float* logits, const int32_t* targets, float* loss_rows, float* lse,
                           int64_t N, int64_t V) {
  if (N <= 0) return;
  cross_entropy_forward_kernel<<<static_cast<unsigned>(N), row_threads(V)>>>(logits, targets, loss_rows, lse,
                                                                             V);
  TF_CUDA_LAUNCHED("cross_entropy_forward_kernel");
}

void cross_entropy_backward(const float* logits, const int32_t* targets, const float* lse,
                            const float* row_scale, float* dlogits, int64_t N, int64_t V) {
  int64_t n = N * V;
  if (n <= 0) return;
  cross_entropy_backward_kernel<<<flat_blocks(n), kThreads>>>(logits, targets, lse, row_scale, dlogits, V, n);
  TF_CUDA_LAUNCHED("cross_entropy_backward_kernel");
}

}  // namespace tf::cuda
