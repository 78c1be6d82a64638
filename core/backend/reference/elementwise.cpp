// Reference elementwise kernels: broadcasting arithmetic over the 4-D index space, fill, scaling, axpy.
#include "backend/reference/kernels.hpp"

namespace tf::ref {

void binary_forward(BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb,
                    float* out, const Dims4& dims) {
  int64_t n = 0;
  for_each4(dims, [&](int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
    float x = a[at(sa, i0, i1, i2, i3)], y = b[at(sb, i0, i1, i2, i3)];
    out[n++] = op == BinaryOp::Add ? x + y : op == BinaryOp::Sub ? x - y : x * y;
  });
}

void fill(float* dst, float value, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = value;
}

void scale(const float* x, float alpha, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = alpha * x[i];
}

void axpy(float alpha, const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] += alpha * x[i];
}

void mul_accumulate(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] += a[i] * b[i];
}

}  // namespace tf::ref
