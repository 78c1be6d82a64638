// CPU cross-entropy rows: loss = logsumexp - logit[target]. Where the gradient is asked for, the forward
// writes softmax - onehot from the exponentials its log-sum-exp sums (one exp per logit for the whole
// step: a backward kernel recomputing softmax from the log-sum-exp spent a second one).
#pragma once
#include <cmath>
#include <cstdint>

#include "backend/cpu/parallel.hpp"
#include "backend/cpu/softmax.hpp"

namespace tf::cpu {

// dunit = exp(x - lse) - onehot(target) by a second exp: the rows whose maximum is NaN or infinite, where
// the sum of shifted exponentials is not a number to divide by (NaN in, NaN out, as in the reference).
template <class A>
void unit_gradient_by_lse(const float* x, int32_t target, float lse, float* dunit, int64_t V) {
  batch<A> l(lse);
  map_unary<A>(x, dunit, static_cast<size_t>(V), 0.f,
               [l](const batch<A>& v) { return exp_keep_nan<A>(v - l); });
  dunit[target] -= 1.f;
}

// One row: the loss, and with dunit its gradient. The exponentials shifted by the row's max go straight
// into dunit, their sum gives the log-sum-exp, and dividing by the sum makes them the softmax.
template <class A>
float cross_entropy_row(const float* x, int32_t target, float* dunit, int64_t V) {
  if (!dunit) return row_logsumexp<A>(x, V) - x[target];
  bool nan = false;
  float m = row_max<A>(x, V, &nan);
  if (nan || std::isinf(m)) {  // rare rows: row_logsumexp holds the rule for them (NaN, or the max itself)
    float lse = row_logsumexp<A>(x, V);
    unit_gradient_by_lse<A>(x, target, lse, dunit, V);
    return lse - x[target];
  }
  batch<A> shift(m);
  size_t n = static_cast<size_t>(V);
  map_unary<A>(x, dunit, n, 0.f, [shift](const batch<A>& v) { return xsimd::exp(v - shift); });
  float s = row_sum<A>(dunit, V, 0.f, [](const batch<A>& v) { return v; });
  batch<A> inv(1.f / s);
  map_unary<A>(dunit, dunit, n, 0.f, [inv](const batch<A>& v) { return v * inv; });
  dunit[target] -= 1.f;
  return m + std::log(s) - x[target];
}

// ---- the kernel of kernels.hpp, spread over the thread pool ----

template <class A>
void cross_entropy_forward(const float* logits, const int32_t* targets, float* loss_rows, float* dunit,
                           int64_t N, int64_t V) {
  for_rows(N, V, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r)
      loss_rows[r] = cross_entropy_row<A>(logits + r * V, targets[r], dunit ? dunit + r * V : nullptr, V);
  });
}

}  // namespace tf::cpu
