// An optimizer's exported state, as a checkpoint carries it: the step counts as exact 64-bit integers and
// the per-parameter slot tensors, each under a stable name. Counts are not float tensors because float32
// holds every integer only up to 2^24 steps; a long run must resume with its exact count.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor.hpp"

namespace tf {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;
using NamedCounts = std::vector<std::pair<std::string, int64_t>>;

struct OptimizerState {
  NamedCounts counts;  // the optimizer's steps and, per parameter, the steps that reached it
  NamedTensors slots;  // per-parameter tensors (Adam's moments, SGD's momentum), the parameter's shape
  bool empty() const { return counts.empty() && slots.empty(); }
};

}  // namespace tf
