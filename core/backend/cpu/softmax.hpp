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

// ---- the kernels of kernels.hpp: row_fn on each row of [rows, cols] arrays, rows spread over the pool ----

template <class RowFn, class... P>
void each_row(int64_t rows, int64_t cols, RowFn row_fn, P*... arrays) {
  for_rows(rows, cols, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) row_fn((arrays + r * cols)..., static_cast<size_t>(cols));
  });
}

// y = exp(x - logsumexp(x)), or for log-softmax x - logsumexp(x).
template <class A, bool Log>
void normalise_rows(const float* x, float* y, int64_t rows, int64_t cols) {
  each_row(
      rows, cols,
      [](const float* xr, float* yr, size_t n) {
        batch<A> lse(row_logsumexp<A>(xr, static_cast<int64_t>(n)));
        map_unary<A>(xr, yr, n, 0.f,
                     [lse](const batch<A>& v) { return Log ? v - lse : exp_keep_nan<A>(v - lse); });
      },
      x, y);
}

template <class A>
void softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  normalise_rows<A, false>(x, y, rows, cols);
}

template <class A>
void log_softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) {
  normalise_rows<A, true>(x, y, rows, cols);
}

// dx = y * (dy - <y, dy>)
template <class A>
void softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  each_row(
      rows, cols,
      [](const float* yr, const float* g, float* dxr, size_t n) {
        batch<A> dot(row_dot<A>(yr, g, static_cast<int64_t>(n)));
        map_binary<A>(yr, g, dxr, n,
                      [dot](const batch<A>& yv, const batch<A>& gv) { return yv * (gv - dot); });
      },
      y, dy, dx);
}

// dx = dy - exp(y) * sum(dy)
template <class A>
void log_softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) {
  each_row(
      rows, cols,
      [](const float* yr, const float* g, float* dxr, size_t n) {
        batch<A> s(row_sum<A>(g, static_cast<int64_t>(n), 0.f, [](const batch<A>& v) { return v; }));
        map_binary<A>(yr, g, dxr, n,
                      [s](const batch<A>& yv, const batch<A>& gv) { return gv - exp_keep_nan<A>(yv) * s; });
      },
      y, dy, dx);
}

}  // namespace tf::cpu
