// Rebuilds a model from a checkpoint: the config in its metadata makes the network, the tensors fill it.
#pragma once
#include <memory>

#include "io/checkpoint.hpp"
#include "nn/model.hpp"

namespace tf {

std::unique_ptr<Model> load_model(const Checkpoint& ck, Device device = Device::CPU);

}  // namespace tf
