// Initial values for parameters, drawn from the project's one generator so a seed fixes a model everywhere.
#pragma once
#include "tensor/tensor.hpp"
#include "util/rng.hpp"

namespace tf {

Tensor randn(const Shape& shape, Rng& rng, float std = 1.f, Device device = Device::CPU);
Tensor rand_uniform(const Shape& shape, Rng& rng, float low, float high, Device device = Device::CPU);
// Overwrites t with N(0, std) numbers (SmallStart's nn.init.normal_).
void normal_(const Tensor& t, Rng& rng, float std);

}  // namespace tf
