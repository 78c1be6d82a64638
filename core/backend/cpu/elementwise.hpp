// CPU elementwise kernels: broadcasting arithmetic rows, fill, scale, axpy, multiply-accumulate.
// A row whose operands are contiguous or broadcast along it (inner stride 1 or 0) runs in SIMD; any other
// inner stride runs the scalar loop. Add, sub and mul round the same either way, so the split is invisible.
#pragma once
#include <cstddef>
#include <cstdint>

#include "backend/cpu/parallel.hpp"
#include "backend/cpu/simd_tail.hpp"
#include "backend/kernels.hpp"

namespace tf::cpu {

// Calls f(row_offset_a, row_offset_b, row_offset_out) for flattened rows [row0, row1) of the 4-D space.
template <class A, class F>
void for_rows4(const Dims4& d, const Strides4& sa, const Strides4& sb, int64_t row0, int64_t row1, F f) {
  for (int64_t r = row0; r < row1; ++r) {
    int64_t i2 = r % d.size[2], rest = r / d.size[2];
    int64_t i1 = rest % d.size[1], i0 = rest / d.size[1];
    f(i0 * sa[0] + i1 * sa[1] + i2 * sa[2], i0 * sb[0] + i1 * sb[1] + i2 * sb[2], r * d.size[3]);
  }
}

// An operand of one row: its inner stride is 1 (contiguous), 0 (one value broadcast) or anything else.
template <class A>
batch<A> row_load(const float* p, int64_t stride, size_t j) {
  return stride == 0 ? batch<A>(p[0]) : batch<A>::load_unaligned(p + j);
}
template <class A>
batch<A> row_load_tail(const float* p, int64_t stride, size_t j, size_t n) {
  return stride == 0 ? batch<A>(p[0]) : load_tail<A>(p + j, n, 0.f);
}

// out[j] = op(a[j * ia], b[j * ib]) for j < n; op works on floats and on batches alike.
template <class A, class Op>
void binary_row(const float* a, int64_t ia, const float* b, int64_t ib, float* out, int64_t n, Op op) {
  if ((ia != 0 && ia != 1) || (ib != 0 && ib != 1)) {
    for (int64_t j = 0; j < n; ++j) out[j] = op(a[j * ia], b[j * ib]);
    return;
  }
  constexpr size_t W = batch<A>::size;
  size_t len = static_cast<size_t>(n), j = 0;
  for (; j + W <= len; j += W) op(row_load<A>(a, ia, j), row_load<A>(b, ib, j)).store_unaligned(out + j);
  if (j < len)
    store_tail<A>(out + j, len - j,
                  op(row_load_tail<A>(a, ia, j, len - j), row_load_tail<A>(b, ib, j, len - j)));
}

template <class A, class Op>
void binary_rows_with(const float* a, const Strides4& sa, const float* b, const Strides4& sb, float* out,
                      const Dims4& d, int64_t row0, int64_t row1, Op op) {
  for_rows4<A>(d, sa, sb, row0, row1, [&](int64_t oa, int64_t ob, int64_t oo) {
    binary_row<A>(a + oa, sa[3], b + ob, sb[3], out + oo, d.size[3], op);
  });
}

template <class A>
void binary_rows(BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb,
                 float* out, const Dims4& d, int64_t row0, int64_t row1) {
  switch (op) {
    case BinaryOp::Add:
      return binary_rows_with<A>(a, sa, b, sb, out, d, row0, row1, [](auto x, auto y) { return x + y; });
    case BinaryOp::Sub:
      return binary_rows_with<A>(a, sa, b, sb, out, d, row0, row1, [](auto x, auto y) { return x - y; });
    case BinaryOp::Mul:
      return binary_rows_with<A>(a, sa, b, sb, out, d, row0, row1, [](auto x, auto y) { return x * y; });
  }
}

template <class A>
void scale_span(const float* x, float alpha, float* y, size_t n) {
  batch<A> s(alpha);
  map_unary<A>(x, y, n, 0.f, [s](const batch<A>& v) { return s * v; });
}

// y += alpha * x, rounded twice (no FMA) like the reference kernel.
template <class A>
void axpy_span(float alpha, const float* x, float* y, size_t n) {
  batch<A> s(alpha);
  update_binary<A>(x, y, n, [s](const batch<A>& xv, const batch<A>& yv) { return yv + s * xv; });
}

template <class A>
void mul_accumulate_span(const float* a, const float* b, float* y, size_t n) {
  constexpr size_t W = batch<A>::size;
  size_t i = 0;
  for (; i + W <= n; i += W) {
    batch<A> r =
        batch<A>::load_unaligned(y + i) + batch<A>::load_unaligned(a + i) * batch<A>::load_unaligned(b + i);
    r.store_unaligned(y + i);
  }
  if (i < n) {
    size_t m = n - i;
    store_tail<A>(y + i, m,
                  load_tail<A>(y + i, m, 0.f) + load_tail<A>(a + i, m, 0.f) * load_tail<A>(b + i, m, 0.f));
  }
}

// ---- the kernels of kernels.hpp, spread over the thread pool ----

template <class A>
void binary_forward(BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb,
                    float* out, const Dims4& dims) {
  for_rows(rows_of(dims), dims.size[3],
           [&](int64_t r0, int64_t r1) { binary_rows<A>(op, a, sa, b, sb, out, dims, r0, r1); });
}

template <class A>
void fill(float* dst, float value, size_t n) {
  for_spans(n, [&](size_t o, size_t m) {
    for (size_t i = o; i < o + m; ++i) dst[i] = value;
  });
}

template <class A>
void scale(const float* x, float alpha, float* y, size_t n) {
  for_spans(n, [&](size_t o, size_t m) { scale_span<A>(x + o, alpha, y + o, m); });
}

template <class A>
void axpy(float alpha, const float* x, float* y, size_t n) {
  for_spans(n, [&](size_t o, size_t m) { axpy_span<A>(alpha, x + o, y + o, m); });
}

template <class A>
void mul_accumulate(const float* a, const float* b, float* y, size_t n) {
  for_spans(n, [&](size_t o, size_t m) { mul_accumulate_span<A>(a + o, b + o, y + o, m); });
}

}  // namespace tf::cpu
