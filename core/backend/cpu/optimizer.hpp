// CPU optimizer steps over flat parameter ranges, PyTorch 1.13's single-tensor formulas in float:
// Adam/AdamW  m = b1 m + (1-b1) g,  v = b2 v + (1-b2) g^2,  p -= lr/bc1 * m / (sqrt(v)/sqrt(bc2) + eps), with
// g += wd p (Adam) or p *= 1 - lr wd first (AdamW); SGD  buf = g (first step) or momentum buf + g, p -= lr
// buf. A step-log guard (AdamArgs::guard) lives in host memory here: read once, before the threads start.
#pragma once
#include <cmath>
#include <cstddef>

#include "backend/cpu/parallel.hpp"
#include "backend/cpu/simd_tail.hpp"
#include "backend/optimizer_update.hpp"

namespace tf::cpu {

template <class A>
struct AdamLanes {
  batch<A> coef, b1, c1, b2, c2, step, bc2_sqrt, eps, decay, l2;
  explicit AdamLanes(const AdamArgs& a)
      : coef(guard_coefficient(a.guard)),
        b1(a.beta1),
        c1(1.f - a.beta1),
        b2(a.beta2),
        c2(1.f - a.beta2),
        step(a.lr / a.bias_correction1),
        bc2_sqrt(std::sqrt(a.bias_correction2)),
        eps(a.eps),
        decay(a.decoupled ? 1.f - a.lr * a.weight_decay : 1.f),
        l2(a.decoupled ? 0.f : a.weight_decay) {}
  // Updates p, m, v in place.
  void step_lanes(batch<A>& p, const batch<A>& grad, batch<A>& m, batch<A>& v) const {
    batch<A> g = grad * coef + l2 * p;
    p = p * decay;
    m = b1 * m + c1 * g;
    v = b2 * v + c2 * g * g;
    p = p - step * m / (xsimd::sqrt(v) / bc2_sqrt + eps);
  }
};

template <class A>
void adam_step_span(float* param, const float* grad, float* m, float* v, size_t n, const AdamArgs& a) {
  constexpr size_t W = batch<A>::size;
  AdamLanes<A> k(a);
  size_t i = 0;
  for (; i + W <= n; i += W) {
    batch<A> p = batch<A>::load_unaligned(param + i), mi = batch<A>::load_unaligned(m + i);
    batch<A> vi = batch<A>::load_unaligned(v + i);
    k.step_lanes(p, batch<A>::load_unaligned(grad + i), mi, vi);
    p.store_unaligned(param + i);
    mi.store_unaligned(m + i);
    vi.store_unaligned(v + i);
  }
  if (i < n) {
    size_t r = n - i;
    batch<A> p = load_tail<A>(param + i, r, 0.f), mi = load_tail<A>(m + i, r, 0.f),
             vi = load_tail<A>(v + i, r, 0.f);
    k.step_lanes(p, load_tail<A>(grad + i, r, 0.f), mi, vi);
    store_tail<A>(param + i, r, p);
    store_tail<A>(m + i, r, mi);
    store_tail<A>(v + i, r, vi);
  }
}

// momentum may be null when a.momentum is 0 (no buffer is kept then).
template <class A>
void sgd_step_span(float* param, const float* grad, float* momentum, size_t n, const SgdArgs& a) {
  batch<A> lr(a.lr), wd(a.weight_decay), mu(a.momentum), coef(guard_coefficient(a.guard));
  if (a.momentum == 0.f) {
    update_binary<A>(grad, param, n,
                     [=](const batch<A>& g, const batch<A>& p) { return p - lr * (g * coef + wd * p); });
    return;
  }
  bool first = a.first_step;
  auto buffer = [=](const batch<A>& g, const batch<A>& p, const batch<A>& buf) {
    batch<A> d = g * coef + wd * p;
    return first ? d : mu * buf + d;
  };
  constexpr size_t W = batch<A>::size;
  size_t i = 0;
  for (; i + W <= n; i += W) {
    batch<A> p = batch<A>::load_unaligned(param + i);
    batch<A> buf = buffer(batch<A>::load_unaligned(grad + i), p, batch<A>::load_unaligned(momentum + i));
    buf.store_unaligned(momentum + i);
    (p - lr * buf).store_unaligned(param + i);
  }
  if (i < n) {
    size_t r = n - i;
    batch<A> p = load_tail<A>(param + i, r, 0.f);
    batch<A> buf = buffer(load_tail<A>(grad + i, r, 0.f), p, load_tail<A>(momentum + i, r, 0.f));
    store_tail<A>(momentum + i, r, buf);
    store_tail<A>(param + i, r, p - lr * buf);
  }
}

// ---- the kernels of kernels.hpp, spread over the thread pool ----

template <class A>
void adam_step(float* param, const float* grad, float* m, float* v, size_t n, const AdamArgs& a) {
  if (!guard_keeps(a.guard)) return;
  for_spans(n, [&](size_t o, size_t len) { adam_step_span<A>(param + o, grad + o, m + o, v + o, len, a); });
}

// momentum may be null when a.momentum is 0 (no buffer is kept then).
template <class A>
void sgd_step(float* param, const float* grad, float* momentum, size_t n, const SgdArgs& a) {
  if (!guard_keeps(a.guard)) return;
  for_spans(n, [&](size_t o, size_t len) {
    sgd_step_span<A>(param + o, grad + o, momentum ? momentum + o : nullptr, len, a);
  });
}

}  // namespace tf::cpu
