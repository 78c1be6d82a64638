// masked_fill: y = mask != 0 ? value : x, one thread per element, the mask read through broadcast strides.
#include "backend/cuda/common.cuh"
#include "backend/cuda/kernels.cuh"

namespace tf::cuda {

namespace {
__global__ void masked_fill_kernel(const float* x, const float* mask, Step4 ms, float value, float* y,
                                   Space4 d, int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride())
    y[i] = mask[offset4(i, d, ms)] != 0.f ? value : x[i];
}
}  // namespace

void masked_fill(const float* x, const float* mask, const Strides4& mask_strides, float value, float* y,
                 const Dims4& dims) {
  int64_t n = dims.numel();
  if (n <= 0) return;
  masked_fill_kernel<<<flat_blocks(n), kThreads>>>(x, mask, step4(mask_strides), value, y, space4(dims), n);
  TF_CUDA_LAUNCHED("masked_fill_kernel");
}

}  // namespace tf::cuda
