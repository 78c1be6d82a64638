// CPU elementwise kernels: broadcasting arithmetic rows, scale, axpy.
#pragma once
#include <cstddef>
#include <cstdint>

#include "backend/backend.hpp"
#include "backend/cpu/simd.hpp"

namespace tf::cpu {

// Calls f(row_offset_a, row_offset_b, row_offset_out) for flattened rows [row0, row1) of the 4-D space.
template <class F>
void for_rows4(const Dims4& d, const Strides4& sa, const Strides4& sb, int64_t row0, int64_t row1, F f) {
  for (int64_t r = row0; r < row1; ++r) {
    int64_t i2 = r % d.size[2], rest = r / d.size[2];
    int64_t i1 = rest % d.size[1], i0 = rest / d.size[1];
    f(i0 * sa[0] + i1 * sa[1] + i2 * sa[2], i0 * sb[0] + i1 * sb[1] + i2 * sb[2], r * d.size[3]);
  }
}

template <class A>
void binary_rows(BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb, float* out,
                 const Dims4& d, int64_t row0, int64_t row1) {
  int64_t n = d.size[3], ia = sa[3], ib = sb[3];
  for_rows4(d, sa, sb, row0, row1, [&](int64_t oa, int64_t ob, int64_t oo) {
    const float* pa = a + oa;
    const float* pb = b + ob;
    float* po = out + oo;
    for (int64_t j = 0; j < n; ++j) {
      float x = pa[j * ia], y = pb[j * ib];
      po[j] = op == BinaryOp::Add ? x + y : op == BinaryOp::Sub ? x - y : x * y;
    }
  });
}

template <class A>
void scale(const float* x, float alpha, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = alpha * x[i];
}

template <class A>
void axpy(float alpha, const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] += alpha * x[i];
}

template <class A>
void mul_accumulate(const float* a, const float* b, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] += a[i] * b[i];
}

}  // namespace tf::cpu
