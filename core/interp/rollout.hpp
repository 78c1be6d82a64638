// Attention rollout (course D5; Abnar & Zuidema): average each layer's heads, add the residual path as
// 0.5 A + 0.5 I, renormalise the rows, and multiply through the layers: R = A_L ... A_1.
#pragma once
#include <vector>

#include "tensor/tensor.hpp"

namespace tf {

// layers: per layer the weights [B, heads, T, T] (as the models keep them); sample b of the batch.
// Returns [T, T]: how much each output position draws, through every layer, on each input position.
Tensor attention_rollout(const std::vector<Tensor>& layers, int64_t b = 0);
// The head average of one layer for sample b: [T, S].
Tensor head_mean(const Tensor& weights, int64_t b = 0);

}  // namespace tf
