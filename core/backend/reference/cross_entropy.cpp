// Reference cross-entropy rows in double: loss = logsumexp - logit[target]; backward = scale * (softmax -
// onehot).
#include <cmath>

#include "backend/reference/kernels.hpp"

namespace tf::ref {

void cross_entropy_forward(const float* logits, const int32_t* targets, float* loss_rows, float* lse,
                           int64_t N, int64_t V) {
  for (int64_t r = 0; r < N; ++r) {
    double l = row_lse(logits + r * V, V);
    lse[r] = static_cast<float>(l);
    loss_rows[r] = static_cast<float>(l - logits[r * V + targets[r]]);
  }
}

void cross_entropy_backward(const float* logits, const int32_t* targets, const float* lse,
                            const float* row_scale, float* dlogits, int64_t N, int64_t V) {
  for (int64_t r = 0; r < N; ++r) {
    for (int64_t c = 0; c < V; ++c) {
      double p = std::exp(static_cast<double>(logits[r * V + c]) - lse[r]);
      dlogits[r * V + c] = static_cast<float>(row_scale[r] * (p - (c == targets[r] ? 1.0 : 0.0)));
    }
  }
}

}  // namespace tf::ref
