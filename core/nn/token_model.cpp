// The interface's default for scoring chosen positions: every position's logits, then the chosen rows.
#include "nn/token_model.hpp"

#include "ops/ops.hpp"

namespace tf {

Tensor TokenModel::forward_rows(const Ids& x, const Ids& rows) const { return pick_rows(forward(x), rows); }

}  // namespace tf
