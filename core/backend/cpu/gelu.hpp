// CPU GELU, exact (erf) and tanh forms, and their slopes for the backward pass. Both are written without the
// cancellation of 1 + erf(...) or 1 + tanh(...) for negative inputs, which in float would lose most digits
// of the small results there. The erf form takes the normal CDF and density from one exp (normal_halves
// below: one exp, one division and one polynomial; xsimd's erfc spent two polynomials, and the slope a
// second exp). Tanh form, u = sqrt(2/pi) (x + 0.044715 x^3): 0.5 (1 + tanh u) = p = 1 / (1 + e^{-2u}), 0.5 (1
// - tanh u) = q = e^{-2u} p.
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
  batch<A> inf = batch<A>(std::numeric_limits<float>::infinity()), near_zero = batch<A>(0.7f);

  // c[0] + c[1] t + ... + c[10] t^10 in Estrin's order: four dependent steps instead of Horner's ten, which
  // matters where there is no FMA (wasm, SSE: a multiply and an add per step).
  static batch<A> estrin10(const float* c, const batch<A>& t) {
    auto pair = [&](int i) { return fmadd(batch<A>(c[i + 1]), t, batch<A>(c[i])); };
    batch<A> t2 = t * t, t4 = t2 * t2, t8 = t4 * t4;
    batch<A> low = fmadd(pair(2), t2, pair(0)), mid = fmadd(pair(6), t2, pair(4));
    batch<A> high = fmadd(batch<A>(c[10]), t2, pair(8));
    return fmadd(high, t8, fmadd(mid, t4, low));
  }

  // Phi(x) = 0.5 erfc(-x / sqrt2) and e = e^{-x^2/2} (the density is e / sqrt(2 pi)), from one exp. With
  // a = |x| / sqrt2 and t = 1 / (1 + a / 2), erfc(a) = t e^{-a^2} Q(t): Q is a degree-10 polynomial fitted to
  // erfc(a) e^{a^2} / t over t in [0, 1] (relative least squares on Chebyshev nodes by
  // scripts/fit-gelu-polynomials.py; relative error 5e-8 in double with these float coefficients, below what
  // float's rounding of a^2 does to e^{-a^2}). Phi is that tail for x < 0, 1 - it else. At x = +-inf, e and
  // the tail are 0; a NaN x stays NaN.
  void normal_halves(const batch<A>& x, batch<A>& cdf, batch<A>& e) const {
    static constexpr float kQ[] = {0.282094806f,  0.282093763f,   0.24688457f,  0.175315976f,
                                   0.0934624374f, -0.0592113584f, 0.13217704f,  -0.454973996f,
                                   0.493694931f,  -0.234733596f,  0.0431954339f};
    batch<A> z = x * inv_sqrt2, a = xsimd::abs(z), s = z * z;
    auto near = a < near_zero;
    if (xsimd::all(near)) {
      cdf = cdf_near_zero(z, s);
      e = exp_near_zero(s);
      return;
    }
    e = xsimd::exp(-s);
    batch<A> t = one / (one + half * a);
    batch<A> tail = half * t * e * estrin10(kQ, t);
    cdf = xsimd::select(x < batch<A>(0.f), tail, one - tail);
    if (xsimd::any(near)) {  // each lane's value depends on its x alone, not on its neighbours
      cdf = xsimd::select(near, cdf_near_zero(z, s), cdf);
      e = xsimd::select(near, exp_near_zero(s), e);
    }
  }

  // Phi(x) where a = |z| < 0.7 (z = x / sqrt2, s = z^2): 0.5 + 0.5 erf(z), erf(z) = z P(s), P of degree 4
  // fitted to erf(z) / z over s in [0, 0.49] (relative least squares on Chebyshev nodes by
  // scripts/fit-gelu-polynomials.py; relative error 6e-8, float's rounding; 1 + erf(z) > 0.3, so no
  // cancellation). Activations are mostly this small, and there the forward needs no exp and no division.
  // Lanes outside the range take the value above (normal_halves selects per lane), so a result never depends
  // on a lane's neighbours.
  batch<A> cdf_near_zero(const batch<A>& z, const batch<A>& s) const {
    static constexpr float kP[] = {1.12837911f, -0.376122177f, 0.112769537f, -0.0264730286f, 0.00428033248f};
    batch<A> p(kP[4]);
    for (int i = 3; i >= 0; --i) p = fmadd(p, s, batch<A>(kP[i]));
    return half + half * z * p;
  }

  // e^{-s} for 0 <= s < 0.49 by a degree-5 polynomial fitted the same way (relative error 3e-8).
  static batch<A> exp_near_zero(const batch<A>& s) {
    static constexpr float kE[] = {1.f,           -0.999998689f, 0.499970227f,
                                   -0.166414082f, 0.0406803489f, -0.00650624232f};
    batch<A> p(kE[5]);
    for (int i = 4; i >= 0; --i) p = fmadd(p, s, batch<A>(kE[i]));
    return p;
  }

  // Phi(x) alone, for the forward.
  batch<A> normal_cdf(const batch<A>& x) const {
    batch<A> z = x * inv_sqrt2;
    if (xsimd::all(xsimd::abs(z) < near_zero)) return cdf_near_zero(z, z * z);
    batch<A> cdf, e;
    normal_halves(x, cdf, e);
    return cdf;
  }

  // p = 0.5 (1 + tanh u) and q = 0.5 (1 - tanh u) for the tanh form at x. Where e^{-2u} overflows, p is 0
  // and q is 1 (so gelu(-inf) is -inf * 0 = NaN, as in the reference).
  void tanh_halves(const batch<A>& x, batch<A>& p, batch<A>& q) const {
    batch<A> u = sqrt_2_over_pi * (x + cubic * x * x * x);
    batch<A> e = xsimd::exp(-two * u);
    p = one / (one + e);
    q = xsimd::select(e == inf, one, e * p);
  }
};

// y = gelu(x), and where slope is given dy/dx there: Erf d/dx = Phi(x) + x phi(x); Tanh d/dx = p + 2 x p q
// du/dx, du/dx = sqrt(2/pi) (1 + 3 * 0.044715 x^2). The slope comes from the forward's own exp and CDF, so
// the backward pass is one product: a backward kernel recomputing them cost twice the forward (wasm, Node
// 20, per story step: GELU was 8 ms forward + 17 backward, now 16.5 forward + a 2.5 ms product).
template <class A>
void gelu_forward_span(const float* x, float* y, float* slope, size_t n, GeluMode mode) {
  GeluConst<A> k;
  bool erf = mode == GeluMode::Erf;
  if (erf && !slope) {
    map_unary<A>(x, y, n, 0.f, [&k](const batch<A>& v) { return v * k.normal_cdf(v); });
  } else if (erf) {
    map_unary_pair<A>(x, y, slope, n, [&k](const batch<A>& v, batch<A>& s) {
      batch<A> cdf, e;
      k.normal_halves(v, cdf, e);
      s = cdf + v * k.inv_sqrt_2pi * e;
      return v * cdf;
    });
  } else if (!slope) {
    map_unary<A>(x, y, n, 0.f, [&k](const batch<A>& v) {
      batch<A> p, q;
      k.tanh_halves(v, p, q);
      return v * p;
    });
  } else {
    map_unary_pair<A>(x, y, slope, n, [&k](const batch<A>& v, batch<A>& s) {
      batch<A> p, q;
      k.tanh_halves(v, p, q);
      s = p + k.two * v * p * q * k.sqrt_2_over_pi * (k.one + k.cubic3 * v * v);
      return v * p;
    });
  }
}

// ---- the kernel of kernels.hpp, spread over the thread pool ----

template <class A>
void gelu_forward(const float* x, float* y, float* slope, size_t n, GeluMode mode) {
  for_spans(n, [&](size_t o, size_t m) {
    gelu_forward_span<A>(x + o, y + o, slope ? slope + o : nullptr, m, mode);
  });
}

}  // namespace tf::cpu
