// CPU GELU, exact (erf) and tanh forms, with xsimd's vector erfc and exp. Both forms are written without
// the cancellation of 1 + erf(...) or 1 + tanh(...) for negative inputs, which in float would lose most
// digits of the small results there:  0.5 (1 + erf(x / sqrt2)) = 0.5 erfc(-x / sqrt2), and with
// u = sqrt(2/pi) (x + 0.044715 x^3),  0.5 (1 + tanh u) = p = 1 / (1 + e^{-2u}),  0.5 (1 - tanh u) = q =
// e^{-2u} p.
#pragma once
#include <cstddef>
#include <limits>

#include "backend/cpu/parallel.hpp"
#include "backend/cpu/simd_tail.hpp"
#include "backend/kernels.hpp"

namespace tf::cpu {

// Brace-initialising a batch would pick its per-lane initializer-list constructor: each constant is a
// splat made with parentheses.
template <class A>
struct GeluConst {
  batch<A> half = batch<A>(0.5f), one = batch<A>(1.f), two = batch<A>(2.f);
  batch<A> inv_sqrt2 = batch<A>(0.70710678118654752f), inv_sqrt_2pi = batch<A>(0.39894228040143268f);
  batch<A> sqrt_2_over_pi = batch<A>(0.79788456080286536f), cubic = batch<A>(0.044715f),
           cubic3 = batch<A>(3.f * 0.044715f);
  batch<A> inf = batch<A>(std::numeric_limits<float>::infinity());

  // p = 0.5 (1 + tanh u) and q = 0.5 (1 - tanh u) for the tanh form at x. Where e^{-2u} overflows, p is 0
  // and q is 1 (so gelu(-inf) is -inf * 0 = NaN, as in the reference).
  void tanh_halves(const batch<A>& x, batch<A>& p, batch<A>& q) const {
    batch<A> u = sqrt_2_over_pi * (x + cubic * x * x * x);
    batch<A> e = xsimd::exp(-two * u);
    p = one / (one + e);
    q = xsimd::select(e == inf, one, e * p);
  }
};

template <class A>
void gelu_forward_span(const float* x, float* y, size_t n, GeluMode mode) {
  GeluConst<A> k;
  if (mode == GeluMode::Erf) {
    map_unary<A>(x, y, n, 0.f,
                 [&k](const batch<A>& v) { return k.half * v * xsimd::erfc(-v * k.inv_sqrt2); });
  } else {
    map_unary<A>(x, y, n, 0.f, [&k](const batch<A>& v) {
      batch<A> p, q;
      k.tanh_halves(v, p, q);
      return v * p;
    });
  }
}

// Erf: d/dx = Phi(x) + x phi(x).  Tanh: d/dx = p + 2 x p q du/dx, du/dx = sqrt(2/pi) (1 + 3 * 0.044715 x^2).
template <class A>
void gelu_backward_span(const float* x, const float* dy, float* dx, size_t n, GeluMode mode) {
  GeluConst<A> k;
  if (mode == GeluMode::Erf) {
    map_binary<A>(x, dy, dx, n, [&k](const batch<A>& v, const batch<A>& g) {
      batch<A> cdf = k.half * xsimd::erfc(-v * k.inv_sqrt2);
      batch<A> pdf = k.inv_sqrt_2pi * xsimd::exp(-k.half * v * v);
      return (cdf + v * pdf) * g;
    });
  } else {
    map_binary<A>(x, dy, dx, n, [&k](const batch<A>& v, const batch<A>& g) {
      batch<A> p, q;
      k.tanh_halves(v, p, q);
      batch<A> du = k.sqrt_2_over_pi * (k.one + k.cubic3 * v * v);
      return (p + k.two * v * p * q * du) * g;
    });
  }
}

// ---- the kernels of kernels.hpp, spread over the thread pool ----

template <class A>
void gelu_forward(const float* x, float* y, size_t n, GeluMode mode) {
  for_spans(n, [&](size_t o, size_t m) { gelu_forward_span<A>(x + o, y + o, m, mode); });
}

template <class A>
void gelu_backward(const float* x, const float* dy, float* dx, size_t n, GeluMode mode) {
  for_spans(n, [&](size_t o, size_t m) { gelu_backward_span<A>(x + o, dy + o, dx + o, m, mode); });
}

}  // namespace tf::cpu
