// Elementwise kernels: broadcasting arithmetic over the 4-D index space (one thread per output element,
// operands read through their strides, stride 0 on broadcast dims), fill, scale, axpy and mul_accumulate.
#include "backend/cuda/common.cuh"
#include "backend/cuda/kernels.cuh"

namespace tf::cuda {

namespace {

template <BinaryOp Op>
__global__ void binary_kernel(const float* a, Step4 sa, const float* b, Step4 sb, float* out, Space4 d,
                              int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) {
    float x = a[offset4(i, d, sa)], y = b[offset4(i, d, sb)];
    out[i] = Op == BinaryOp::Add ? x + y : Op == BinaryOp::Sub ? x - y : x * y;
  }
}

__global__ void fill_kernel(float* dst, float value, int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) dst[i] = value;
}

__global__ void scale_kernel(const float* x, float alpha, float* y, int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) y[i] = alpha * x[i];
}

__global__ void axpy_kernel(float alpha, const float* x, float* y, int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) y[i] += alpha * x[i];
}

__global__ void mul_accumulate_kernel(const float* a, const float* b, float* y, int64_t n) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) y[i] += a[i] * b[i];
}

}  // namespace

void binary_forward(BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb,
                    float* out, const Dims4& dims) {
  int64_t n = dims.numel();
  if (n <= 0) return;
  unsigned blocks = flat_blocks(n);
  Space4 d = space4(dims);
  if (op == BinaryOp::Add)
    binary_kernel<BinaryOp::Add><<<blocks, kThreads>>>(a, step4(sa), b, step4(sb), out, d, n);
  else if (op == BinaryOp::Sub)
    binary_kernel<BinaryOp::Sub><<<blocks, kThreads>>>(a, step4(sa), b, step4(sb), out, d, n);
  else
    binary_kernel<BinaryOp::Mul><<<blocks, kThreads>>>(a, step4(sa), b, step4(sb), out, d, n);
  TF_CUDA_LAUNCHED("binary_kernel");
}

void fill(float* dst, float value, size_t n) {
  if (!n) return;
  fill_kernel<<<flat_blocks(static_cast<int64_t>(n)), kThreads>>>(dst, value, static_cast<int64_t>(n));
  TF_CUDA_LAUNCHED("fill_kernel");
}

void scale(const float* x, float alpha, float* y, size_t n) {
  if (!n) return;
  scale_kernel<<<flat_blocks(static_cast<int64_t>(n)), kThreads>>>(x, alpha, y, static_cast<int64_t>(n));
  TF_CUDA_LAUNCHED("scale_kernel");
}

void axpy(float alpha, const float* x, float* y, size_t n) {
  if (!n) return;
  axpy_kernel<<<flat_blocks(static_cast<int64_t>(n)), kThreads>>>(alpha, x, y, static_cast<int64_t>(n));
  TF_CUDA_LAUNCHED("axpy_kernel");
}

void mul_accumulate(const float* a, const float* b, float* y, size_t n) {
  if (!n) return;
  mul_accumulate_kernel<<<flat_blocks(static_cast<int64_t>(n)), kThreads>>>(a, b, y, static_cast<int64_t>(n));
  TF_CUDA_LAUNCHED("mul_accumulate_kernel");
}

}  // namespace tf::cuda
