// The log-sum-exp of one row, computed by a whole block: shared by softmax.cu and cross_entropy.cu. Like
// the reference, a NaN anywhere makes it NaN and an infinite maximum is returned as is.
#pragma once
#include "backend/cuda/common.cuh"
#include "backend/cuda/warp_reduce.cuh"

namespace tf::cuda {

constexpr int kMaxRowThreads = 512;

// Every thread of the block gets the result; every thread must call it.
__device__ inline float block_row_lse(const float* x, int64_t cols) {
  float m = -INFINITY;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) m = NanMaxOp{}(m, x[c]);
  m = block_nan_max(m);
  if (isnan(m) || isinf(m)) return m;
  float s = 0;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) s += expf(x[c] - m);
  return m + logf(block_sum(s));
}

// Threads per row block: a power of two from 32 up to kMaxRowThreads, no more than the row needs.
inline int row_threads(int64_t cols) {
  int t = 32;
  while (t < kMaxRowThreads && t < cols) t *= 2;
  return t;
}

}  // namespace tf::cuda
