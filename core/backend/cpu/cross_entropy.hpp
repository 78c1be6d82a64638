// CPU cross-entropy rows: loss = logsumexp - logit[target]; backward = scale * (softmax - onehot).
#pragma once
#include <cmath>
#include <cstdint>

#include "backend/cpu/softmax.hpp"

namespace tf::cpu {

template <class A>
void cross_entropy_forward(const float* logits, const int32_t* targets, float* loss_rows, float* lse, int64_t N,
                           int64_t V) {
  for (int64_t r = 0; r < N; ++r) {
    float l = row_logsumexp<A>(logits + r * V, V);
    lse[r] = l;
    loss_rows[r] = l - logits[r * V + targets[r]];
  }
}

template <class A>
void cross_entropy_backward(const float* logits, const int32_t* targets, const float* lse, const float* row_scale,
                            float* dlogits, int64_t N, int64_t V) {
  for (int64_t r = 0; r < N; ++r) {
    for (int64_t c = 0; c < V; ++c) dlogits[r * V + c] = row_scale[r] * std::exp(logits[r * V + c] - lse[r]);
    dlogits[r * V + targets[r]] -= row_scale[r];
  }
}

}  // namespace tf::cpu
