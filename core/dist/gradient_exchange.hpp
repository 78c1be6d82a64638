// The one exchange of a data-parallel step: every rank's gradients and loss summed in place over the ranks,
// so each rank steps with the global batch's (the tasks normalise each slice's loss by the global batch, so
// the slices' losses and gradients add up to the whole batch's). They travel as one flat buffer
// [gradient numbers + 1], the loss last: one message per step whatever the number of parameters.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dist/communicator.hpp"
#include "tensor/tensor.hpp"

namespace tf {

class GradientExchange {
 public:
  explicit GradientExchange(std::shared_ptr<Communicator> ranks) : ranks_(std::move(ranks)) {}
  Communicator& ranks() const { return *ranks_; }
  // After this rank's backward pass: the gradients of `params` (those defined) and `loss` ([1], on their
  // device) become the sums over the ranks.
  void sum(const std::vector<std::pair<std::string, Tensor>>& params, const Tensor& loss);

 private:
  std::shared_ptr<Communicator> ranks_;
  Tensor flat_;  // [gradient numbers + 1] on the parameters' device, kept from step to step
};

}  // namespace tf
