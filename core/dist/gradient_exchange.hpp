// The one exchange of a data-parallel step: every rank's gradients and loss summed in place over the ranks,
// so each rank steps with the global batch's (the tasks normalise each slice's loss by the global batch, so
// the slices' losses and gradients add up to the whole batch's). The optimizer's flat gradient slab is
// summed where it lies, in one message whatever the number of parameters, and the loss in a second of one
// number; gradients that are not in a slab travel together with the loss as one flat buffer
// [gradient numbers + 1] (copied in and out).
#pragma once
#include <memory>
#include <utility>
#include <vector>

#include "dist/communicator.hpp"
#include "tensor/tensor.hpp"

namespace tf {

class GradientExchange {
 public:
  explicit GradientExchange(std::shared_ptr<Communicator> ranks) : ranks_(std::move(ranks)) {}
  Communicator& ranks() const { return *ranks_; }
  // After this rank's backward pass: `gradients` (the optimizer's buffers: its flat gradient slab, or each
  // defined gradient) and `loss` ([1], on their device) become the sums over the ranks.
  void sum(const std::vector<Tensor>& gradients, const Tensor& loss);

 private:
  std::shared_ptr<Communicator> ranks_;
  Tensor flat_;  // [gradient numbers + 1] on the parameters' device, kept from step to step
};

}  // namespace tf
