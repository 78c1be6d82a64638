// Warp and block reductions (sum, max) for the row kernels. The max keeps NaN, unlike fmaxf, because the
// reference turns a whole softmax row into NaN when one element is NaN.
#pragma once
#include <cuda_runtime.h>

#include <cmath>

namespace tf::cuda {

constexpr unsigned kFullMask = 0xffffffffu;

struct SumOp {
  template <class T>
  __device__ T operator()(T a, T b) const {
    return a + b;
  }
};
struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct NanMaxOp {
  __device__ float operator()(float a, float b) const { return (isnan(a) || isnan(b)) ? NAN : fmaxf(a, b); }
};

// Every lane of the warp gets the reduction of the 32 values.
template <class T, class Op>
__device__ T warp_reduce(T v, Op op) {
  for (int offset = 16; offset > 0; offset /= 2) v = op(v, __shfl_xor_sync(kFullMask, v, offset));
  return v;
}

template <class T>
__device__ T warp_sum(T v) {
  return warp_reduce(v, SumOp{});
}

// Every thread of the block gets the reduction. blockDim.x must be a multiple of 32 (at most 1024) and
// every thread must call it; consecutive calls are safe (the scratch is fenced on both sides).
template <class T, class Op>
__device__ T block_reduce(T v, Op op, T identity) {
  __shared__ T partial[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = warp_reduce(v, op);
  __syncthreads();
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  v = lane < warps ? partial[lane] : identity;
  return warp_reduce(v, op);
}

template <class T>
__device__ T block_sum(T v) {
  return block_reduce(v, SumOp{}, T(0));
}
__device__ inline float block_nan_max(float v) { return block_reduce(v, NanMaxOp{}, -INFINITY); }

}  // namespace tf::cuda
