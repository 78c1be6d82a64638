#include "io/model_loader.hpp"

namespace tf {

std::unique_ptr<Model> load_model(const Checkpoint& ck, Device device) {
  ModelConfig config = ModelConfig::from_json(ck.config_json);
  Rng rng(0);  // the initial values are overwritten at once
  auto model = std::make_unique<Model>(config, rng, device);
  load_parameters(model->module(), ck);
  return model;
}

}  // namespace tf
