// Embedding: gather table rows by id; the backward pass scatter-adds into the table gradient with
// atomicAdd, since repeated ids add into the same row (so the order of those sums varies between runs).
#include "backend/cuda/common.cuh"
#include "backend/cuda/kernels.cuh"

namespace tf::cuda {

namespace {

__global__ void embedding_forward_kernel(const float* table, const int32_t* ids, float* out, int64_t C,
                                         int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride())
    out[i] = table[static_cast<int64_t>(ids[i / C]) * C + i % C];
}

__global__ void embedding_backward_kernel(const float* dout, const int32_t* ids, float* dtable, int64_t C,
                                          int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride())
    atomicAdd(dtable + static_cast<int64_t>(ids[i / C]) * C + i % C, dout[i]);
}

}  // namespace

void embedding_forward(const float* table, const int32_t* ids, float* out, int64_t n, int64_t C) {
  int64_t total = n * C;
  if (total <= 0) return;
  embedding_forward_kernel<<<flat_blocks(total), kThreads>>>(table, ids, out, C, total);
  TF_CUDA_LAUNCHED("embedding_forward_kernel");
}

void embedding_backward(const float* dout, const int32_t* ids, const int32_t*, float* dtable, int64_t n,
                        int64_t C) {
  int64_t total = n * C;
  if (total <= 0) return;
  embedding_backward_kernel<<<flat_blocks(total), kThreads>>>(dout, ids, dtable, C, total);
  TF_CUDA_LAUNCHED("embedding_backward_kernel");
}

}  // namespace tf::cuda
