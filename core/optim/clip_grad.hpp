// Clipping by the global gradient norm, torch.nn.utils.clip_grad_norm_ (2-norm): the norm over all gradients
// together; when max_norm / (norm + 1e-6) < 1 every gradient is scaled by that factor. Parameters without a
// gradient are ignored. Unlike torch, a non-finite norm leaves the gradients alone (the caller sees it
// returned; the trainer then skips the step). All of it is worked out on the gradients' device by the
// step_guard kernel; guard_step stops there (nothing read back), the others read the answer.
#pragma once
#include <functional>
#include <vector>

#include "optim/optimizer.hpp"

namespace tf {

// Writes the step-log row `row` (device memory, [kStepLogWidth], see backend/kernels.hpp) for a step whose
// loss is `loss` ([1], on the gradients' device): norm, keep flag and clip factor (max_norm = infinity: no
// clipping). `grads` are the gradient buffers (Optimizer::gradients: the flat slab, one sum of squares).
// The gradients are not scaled: the optimizer kernels apply the factor when they read the row.
// sum_over_ranks (a data-parallel step whose ranks each hold a part of the summed gradients) sums a buffer
// of [the buffers' sums of squares, the loss] over the ranks in place before the row is made of it.
using SumOverRanks = std::function<void(const Tensor& sums)>;
void guard_step(const std::vector<Tensor>& grads, const Tensor& loss, float report_scale, float max_norm,
                float* row, const SumOverRanks& sum_over_ranks = nullptr);

// Returns the total norm before clipping (0 when no parameter has a gradient).
float clip_grad_norm(const std::vector<Tensor>& params, float max_norm);
float clip_grad_norm(const NamedTensors& params, float max_norm);
// The same norm without clipping: NaN or infinity when any gradient holds one (or the squares overflow).
float grad_norm(const NamedTensors& params);

}  // namespace tf
