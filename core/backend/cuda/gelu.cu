// GELU, exact (erf) and GPT-2's tanh approximation, with their derivatives; the reference's formulas in
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
__global__ void gelu_forward_kernel(const float* x, float* y, int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) {
    float v = x[i];
    y[i] = M == GeluMode::Erf ? 0.5f * v * (1.f + erff(v * kInvSqrt2))
                              : 0.5f * v * (1.f + tanhf(kSqrt2OverPi * (v + kCubic * v * v * v)));
  }
}

template <GeluMode M>
__global__ void gelu_backward_kernel(const float* x, const float* dy, float* dx, int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) {
    float v = x[i], d;
    if (M == GeluMode::Erf) {
      d = 0.5f * (1.f + erff(v * kInvSqrt2)) + v * kInvSqrt2Pi * expf(-0.5f * v * v);
    } else {
      float t = tanhf(kSqrt2OverPi * (v + kCubic * v * v * v));
      d = 0.5f * (1.f + t) + 0.5f * v * (1.f - t * t) * kSqrt2OverPi * (1.f + 3.f * kCubic * v * v);
    }
    dx[i] = d * dy[i];
  }
}

}  // namespace

void gelu_forward(const float* x, float* y, size_t n, GeluMode mode) {
  if (!n) return;
  int64_t count = static_cast<int64_t>(n);
  if (mode == GeluMode::Erf)
    gelu_forward_kernel<GeluMode::Erf><<<flat_blocks(count), kThreads>>>(x, y, count);
  else
    gelu_forward_kernel<GeluMode::Tanh><<<flat_blocks(count), kThreads>>>(x, y, count);
  TF_CUDA_LAUNCHED("gelu_forward_kernel");
}

void gelu_backward(const float* x, const float* dy, float* dx, size_t n, GeluMode mode) {
  if (!n) return;
  int64_t count = static_cast<int64_t>(n);
  if (mode == GeluMode::Erf)
    gelu_backward_kernel<GeluMode::Erf><<<flat_blocks(count), kThreads>>>(x, dy, dx, count);
  else
    gelu_backward_kernel<GeluMode::Tanh><<<flat_blocks(count), kThreads>>>(x, dy, dx, count);
  TF_CUDA_LAUNCHED("gelu_backward_kernel");
}

}  // namespace tf::cuda
