// Reference elementwise kernels: broadcasting arithmetic over the 4-D index space, scaling, axpy.
#include "backend/reference/kernels.hpp"

namespace tf::ref {

namespace {
template <class F>
void for_each4(const Dims4& d, F f) {
  const auto& s = d.size;
  for (int64_t i0 = 0; i0 < s[0]; ++i0)
    for (int64_t i1 = 0; i1 < s[1]; ++i1)
      for (int64_t i2 = 0; i2 < s[2]; ++i2)
        for (int64_t i3 = 0; i3 < s[3]; ++i3) f(i0, i1, i2, i3);
}
int64_t at(const Strides4& st, int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
  return i0 * st[0] + i1 * st[1] + i2 * st[2] + i3 * st[3];
}
}  // namespace

void binary_forward(BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb,
                    float* out, const Dims4& dims) {
  int64_t n = 0;
  for_each4(dims, [&](int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
    float x = a[at(sa, i0, i1, i2, i3)], y = b[at(sb, i0, i1, i2, i3)];
    out[n++] = op == BinaryOp::Add ? x + y : op == BinaryOp::Sub ? x - y : x * y;
  });
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

void copy_strided(const float* src, const Strides4& ss, float* dst, const Strides4& ds, const Dims4& dims,
                  bool accumulate) {
  for_each4(dims, [&](int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
    float v = src[at(ss, i0, i1, i2, i3)];
    float& d = dst[at(ds, i0, i1, i2, i3)];
    d = accumulate ? d + v : v;
  });
}

void masked_fill(const float* x, const float* mask, const Strides4& ms, float value, float* y,
                 const Dims4& dims) {
  int64_t n = 0;
  for_each4(dims, [&](int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
    y[n] = mask[at(ms, i0, i1, i2, i3)] != 0.f ? value : x[n];
    ++n;
  });
}

}  // namespace tf::ref
