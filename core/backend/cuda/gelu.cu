// GELU, exact (erf) and GPT-2's tanh approximation, with their slopes; the reference's formulas in
// float arithmetic.
#include "backend/cuda/common.cuh"
#include "backend/cuda/kernels.cuh"

namespace tf::cuda {

namespace {

constexpr float kSqrt2OverPi = 0.7978845608028654f;
constexpr float kInvSqrt2 = 0.7071067811865476f;
constexpr float kInvSqrt2Pi = 0.3989422804014327f;
constexpr float kCubic = 0.044715f;

template <GeluMode M>
__global__ void gelu_forward_kernel(const float* x, float* y, float* slope, int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) {
    float v = x[i];
    if (M == GeluMode::Erf) {
      float cdf = 0.5f * (1.f + erff(v * kInvSqrt2));
      y[i] = v * cdf;
      if (slope) slope[i] = cdf + v * kInvSqrt2Pi * expf(-0.5f * v * v);
    } else {
      float t = tanhf(kSqrt2OverPi * (v + kCubic * v * v * v));
      y[i] = 0.5f * v * (1.f + t);
      if (slope)
        slope[i] = 0.5f * (1.f + t) + 0.5f * v * (1.f - t * t) * kSqrt2OverPi * (1.f + 3.f * kCubic * v * v);
    }
  }
}

}  // namespace

void gelu_forward(const float* x, float* y, float* slope, size_t n, GeluMode mode) {
  if (!n) return;
  int64_t count = static_cast<int64_t>(n);
  if (mode == GeluMode::Erf)
    gelu_forward_kernel<GeluMode::Erf><<<flat_blocks(count), kThreads>>>(x, y, slope, count);
  else
    gelu_forward_kernel<GeluMode::Tanh><<<flat_blocks(count), kThreads>>>(x, y, slope, count);
  TF_CUDA_LAUNCHED("gelu_forward_kernel");
}

}  // namespace tf::cuda
