// CPU softmax and log-softmax over rows, and the row log-sum-exp that cross-entropy and attention share.
// NaN propagates as in the reference: a row holding NaN has a NaN log-sum-exp. The NaN test is explicit
// because a SIMD max may drop NaN, and uses isnan, never x != x: xsimd's != is an ordered compare on AVX
// and AVX-512 (false for NaN). exp goes through exp_keep_nan, which never turns NaN into a number.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

#include "backend/cpu/parallel.hpp"
#include "backend/cpu/simd_tail.hpp"

namespace tf::cpu {

template <class A>
batch<A> exp_keep_nan(const batch<A>& v) {
  return xsimd::select(xsimd::isnan(v), v, xsimd::exp(v));
}

// The largest element of x[0, n) (n >= 1) and whether any element is NaN.
template <class A>
float row_max(const float* x, int64_t n, bool* has_nan) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  batch<A> m(-std::numeric_limits<float>::infinity());
  auto bad = xsimd::isnan(m);
  int64_t c = 0;
  for (; c + W <= n; c += W) {
    batch<A> v = batch<A>::load_unaligned(x + c);
    bad = bad || xsimd::isnan(v);
    m = xsimd::max(m, v);
  }
  if (c < n) {
    batch<A> v = load_tail<A>(x + c, static_cast<size_t>(n - c), -std::numeric_limits<float>::infinity());
    bad = bad || xsimd::isnan(v);
    m = xsimd::max(m, v);
  }
  *has_nan = xsimd::any(bad);
  return lane_max<A>(m);
}

// log sum exp of one row (cols >= 1): NaN when the row holds NaN, the max itself when that is infinite.
template <class A>
float row_logsumexp(const float* x, int64_t cols) {
  bool nan = false;
  float m = row_max<A>(x, cols, &nan);
  if (nan) return std::numeric_limits<float>::quiet_NaN();
  if (std::isinf(m)) return m;
  batch<A> shift(m);
  float s = row_sum<A>(x, cols, -std::numeric_limits<float>::infinity(), [shift](const batch<A>& v) {
    return xsimd::exp(v - shift);
  });  // tail lanes add exp(-inf) = 0
  return m + std::log(s);
}

template <class A>
void softmax_forward_rows(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    batch<A> lse(row_logsumexp<A>(x + r * cols, cols));
    map_unary<A>(x + r * cols, y + r * cols, static_cast<size_t>(cols), 0.f,
                 [lse](const batch<A>& v) { return exp_keep_nan<A>(v - lse); });
  }
}

// sum over c < n of a[c] * b[c].
template <class A>
float row_dot(const float* a, const float* b, int64_t n) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  batch<A> acc0(0.f), acc1(0.f);
  int64_t c = 0;
  for (; c + 2 * W <= n; c += 2 * W) {
    acc0 = fmadd<A>(batch<A>::load_unaligned(a + c), batch<A>::load_unaligned(b + c), acc0);
    acc1 = fmadd<A>(batch<A>::load_unaligned(a + c + W), batch<A>::load_unaligned(b + c + W), acc1);
  }
  for (; c + W <= n; c += W)
    acc0 = fmadd<A>(batch<A>::load_unaligned(a + c), batch<A>::load_unaligned(b + c), acc0);
  if (c < n) {
    size_t m = static_cast<size_t>(n - c);
    acc1 = fmadd<A>(load_tail<A>(a + c, m, 0.f), load_tail<A>(b + c, m, 0.f), acc1);
  }
  return xsimd::hadd(acc0 + acc1);
}

template <class A>
void softmax_backward_rows(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* yr = y + r * cols;
    batch<A> dot(row_dot<A>(yr, dy + r * cols, cols));
    map_binary<A>(yr, dy + r * cols, dx + r * cols, static_cast<size_t>(cols),
                  [dot](const batch<A>& yv, const batch<A>& g) { return yv * (g - dot); });
  }
}

template <class A>
void log_softmax_forward_rows(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    batch<A> lse(row_logsumexp<A>(x + r * cols, cols));
    map_unary<A>(x + r * cols, y + r * cols, static_cast<size_t>(cols), 0.f,
                 [lse](const batch<A>& v) { return v - lse; });
  }
}

template <class A>
void log_softmax_backward_rows(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* g = dy + r * cols;
    batch<A> s(row_sum<A>(g, cols, 0.f, [](const batch<A>& v) { return v; }));
    map_binary<A>(y + r * cols, g, dx + r * cols, static_cast<size_t>(cols),
                  [s](const batch<A>& yv, const batch<A>& gv) { return gv - exp_keep_nan<A>(yv) * s; });
  }
}

// ---- the kernels of kernels.hpp, spread over the thread pool ----

template <class A>
void softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  for_rows(rows, cols, [&](int64_t r0, int64_t r1) {
    softmax_forward_rows<A>(x + r0 * cols, y + r0 * cols, r1 - r0, cols);
  });
}

template <class A>
void softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  for_rows(rows, cols, [&](int64_t r0, int64_t r1) {
    softmax_backward_rows<A>(y + r0 * cols, dy + r0 * cols, dx + r0 * cols, r1 - r0, cols);
  });
}

template <class A>
void log_softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  for_rows(rows, cols, [&](int64_t r0, int64_t r1) {
    log_softmax_forward_rows<A>(x + r0 * cols, y + r0 * cols, r1 - r0, cols);
  });
}

template <class A>
void log_softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  for_rows(rows, cols, [&](int64_t r0, int64_t r1) {
    log_softmax_backward_rows<A>(y + r0 * cols, dy + r0 * cols, dx + r0 * cols, r1 - r0, cols);
  });
}

}  // namespace tf::cpu
