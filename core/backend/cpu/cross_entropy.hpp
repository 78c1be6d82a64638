// CPU cross-entropy rows: loss = logsumexp - logit[target]; backward = scale * (softmax - onehot), the
// softmax recomputed in one vector pass from the kept log-sum-exp (no [rows, V] table is stored).
#pragma once
#include <cstdint>

#include "backend/cpu/parallel.hpp"
#include "backend/cpu/softmax.hpp"

namespace tf::cpu {

template <class A>
void cross_entropy_forward_rows(const float* logits, const int32_t* targets, float* loss_rows, float* lse,
                                int64_t N, int64_t V) {
  for (int64_t r = 0; r < N; ++r) {
    float l = row_logsumexp<A>(logits + r * V, V);
    lse[r] = l;
    loss_rows[r] = l - logits[r * V + targets[r]];
  }
}

template <class A>
void cross_entropy_backward_rows(const float* logits, const int32_t* targets, const float* lse,
                                 const float* row_scale, float* dlogits, int64_t N, int64_t V) {
  for (int64_t r = 0; r < N; ++r) {
    batch<A> l(lse[r]), s(row_scale[r]);
    map_unary<A>(logits + r * V, dlogits + r * V, static_cast<size_t>(V), 0.f,
                 [l, s](const batch<A>& v) { return s * exp_keep_nan<A>(v - l); });
    dlogits[r * V + targets[r]] -= row_scale[r];
  }
}

// ---- the kernels of kernels.hpp, spread over the thread pool ----

template <class A>
void cross_entropy_forward(const float* logits, const int32_t* targets, float* loss_rows, float* lse,
                           int64_t N, int64_t V) {
  for_rows(N, V, [&](int64_t r0, int64_t r1) {
    cross_entropy_forward_rows<A>(logits + r0 * V, targets + r0, loss_rows + r0, lse + r0, r1 - r0, V);
  });
}

template <class A>
void cross_entropy_backward(const float* logits, const int32_t* targets, const float* lse,
                            const float* row_scale, float* dlogits, int64_t N, int64_t V) {
  for_rows(N, V, [&](int64_t r0, int64_t r1) {
    cross_entropy_backward_rows<A>(logits + r0 * V, targets + r0, lse + r0, row_scale + r0, dlogits + r0 * V,
                                   r1 - r0, V);
  });
}

}  // namespace tf::cpu
