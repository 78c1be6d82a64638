// Any of the course's networks, built from a ModelConfig: the token models (NoTalking, WithPosition,
// MyTransformer) or the sorter. Training, sampling, checkpoints and the bindings hold models through this.
#pragma once
#include <memory>

#include "nn/my_transformer.hpp"
#include "nn/sorter.hpp"
#include "nn/token_model.hpp"

namespace tf {

class Model {
 public:
  Model(const ModelConfig& config, Rng& rng, Device device = Device::CPU);
  const ModelConfig& config() const;
  Module& module() const { return *module_; }
  TokenModel* token() const { return token_; }  // null for the sorter
  Sorter* sorter() const { return sorter_; }    // null for token models
  MyTransformer* transformer() const { return transformer_; }
  // The token model, or a tf::Error saying what `purpose` needs.
  TokenModel& token_model(const char* purpose) const;
  Sorter& sorter_model(const char* purpose) const;
  MyTransformer& transformer_model(const char* purpose) const;

 private:
  std::unique_ptr<Module> module_;
  TokenModel* token_ = nullptr;
  Sorter* sorter_ = nullptr;
  MyTransformer* transformer_ = nullptr;
};

}  // namespace tf
