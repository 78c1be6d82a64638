// Reference cross-entropy rows in double: loss = logsumexp - logit[target]; with dunit, softmax - onehot.
#include <cmath>

#include "backend/reference/kernels.hpp"

namespace tf::ref {

void cross_entropy_forward(const float* logits, const int32_t* targets, float* loss_rows, float* dunit,
                           int64_t N, int64_t V) {
  for (int64_t r = 0; r < N; ++r) {
    const float* row = logits + r * V;
    double l = row_lse(row, V);
    loss_rows[r] = static_cast<float>(l - row[targets[r]]);
    if (!dunit) continue;
    for (int64_t c = 0; c < V; ++c)
      dunit[r * V + c] = static_cast<float>(std::exp(row[c] - l) - (c == targets[r] ? 1.0 : 0.0));
  }
}

}  // namespace tf::ref
