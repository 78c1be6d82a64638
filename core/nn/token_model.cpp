// The interface's default for scoring chosen positions: every position's logits, then the chosen rows.
#include "nn/token_model.hpp"

#include "ops/ops.hpp"

namespace tf {

Tensor TokenModel::forward_rows(const Ids& x, const Ids& rows) const {
  Tensor logits = forward(x);  // [B, T, V]
  // A row gather is an embedding lookup whose table is the [B * T, V] logits (its backward scatter-adds).
  return embedding(reshape(logits, Shape{logits.shape().rows(), logits.size(-1)}), rows);
}

}  // namespace tf
