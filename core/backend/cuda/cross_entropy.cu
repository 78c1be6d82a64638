// Cross-entropy rows, one block per row: the row's log-sum-exp, its loss, and where asked the gradient
// softmax - onehot (the backward pass scales it by the row's weight).
#include "backend/cuda/kernels.cuh"
#include "backend/cuda/row_softmax.cuh"

namespace tf::cuda {

namespace {

__global__ void cross_entropy_forward_kernel(const float* logits, const int32_t* targets, float* loss_rows,
                                             float* dunit, int64_t V) {
  int64_t r = blockIdx.x;
  const float* row = logits + r * V;
  float l = block_row_lse(row, V);
  if (threadIdx.x == 0) loss_rows[r] = l - row[targets[r]];
  if (!dunit) return;
  for (int64_t c = threadIdx.x; c < V; c += blockDim.x)
    dunit[r * V + c] = expf(row[c] - l) - (c == targets[r] ? 1.f : 0.f);
}

}  // namespace

void cross_entropy_forward(const float* logits, const int32_t* targets, float* loss_rows, float* dunit,
                           int64_t N, int64_t V) {
  if (N <= 0) return;
  cross_entropy_forward_kernel<<<static_cast<unsigned>(N), row_threads(V)>>>(logits, targets, loss_rows,
                                                                             dunit, V);
  TF_CUDA_LAUNCHED("cross_entropy_forward_kernel");
}

}  // namespace tf::cuda
