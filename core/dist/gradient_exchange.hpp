// The optimizer's half of a data-parallel step, split over the ranks as ZeRO stage 1 does (llm.c, DeepSpeed):
// the gradient slab is reduce-scattered, each rank sums the squares of its part (one small sum of them and
// the loss lets the step guard decide alike everywhere), updates its part of the parameters and optimizer
// state, and the parameters are all-gathered: the bytes of one sum of the gradients, 1/N of the optimizer's
// work. The state is gathered before it is saved. The first step (it makes the state) and gradients outside
// one slab run whole on every rank after one sum of the gradients and loss (one flat buffer, copied).
#pragma once
#include <memory>
#include <utility>
#include <vector>

#include "dist/communicator.hpp"
#include "optim/optimizer.hpp"
#include "tensor/tensor.hpp"

namespace tf {

class GradientExchange {
 public:
  explicit GradientExchange(std::shared_ptr<Communicator> ranks) : ranks_(std::move(ranks)) {}
  Communicator& ranks() const { return *ranks_; }
  // After this rank's backward pass: the step guard's row (clip_grad.hpp's guard_step, same arguments) and
  // the optimizer's update as above. Returns Optimizer::apply_gradients' answer.
  std::vector<bool> step(Optimizer& optimizer, const Tensor& loss, float report_scale, float max_norm,
                         float* row);
  // The optimizer's state whole on every rank again (before it is saved or stepped whole).
  void gather_state(Optimizer& optimizer);
  // `gradients` (the optimizer's buffers) and `loss` ([1], on their device) become the sums over the ranks.
  void sum(const std::vector<Tensor>& gradients, const Tensor& loss);

 private:
  std::shared_ptr<Communicator> ranks_;
  Tensor flat_;                   // [gradient numbers + 1] on the parameters' device, kept from step to step
  bool state_scattered_ = false;  // each rank has updated only its part of the state since it was whole
};

}  // namespace tf
