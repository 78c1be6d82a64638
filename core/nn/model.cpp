#include "nn/model.hpp"

#include "nn/no_talking.hpp"
#include "util/error.hpp"

namespace tf {
namespace {

// Builds the network `Net`, hands it to `owner` and returns it for the typed pointers.
template <class Net>
Net* build(std::unique_ptr<Module>& owner, const ModelConfig& config, Rng& rng, Device device) {
  auto net = std::make_unique<Net>(config, rng, device);
  Net* raw = net.get();
  owner = std::move(net);
  return raw;
}

}  // namespace

Model::Model(const ModelConfig& config, Rng& rng, Device device) {
  config.validate();
  switch (config.kind) {
    case ModelKind::NoTalking:
      token_ = build<NoTalking>(module_, config, rng, device);
      break;
    case ModelKind::WithPosition:
      token_ = build<WithPosition>(module_, config, rng, device);
      break;
    case ModelKind::Transformer:
      token_ = transformer_ = build<MyTransformer>(module_, config, rng, device);
      break;
    case ModelKind::Sorter:
      sorter_ = build<Sorter>(module_, config, rng, device);
      break;
  }
}

const ModelConfig& Model::config() const { return token_ ? token_->config() : sorter_->config(); }

TokenModel& Model::token_model(const char* purpose) const {
  TF_CHECK(token_, purpose, " needs a token model (notalking, withposition or transformer), not the sorter");
  return *token_;
}

Sorter& Model::sorter_model(const char* purpose) const {
  TF_CHECK(sorter_, purpose, " needs the sorter model");
  return *sorter_;
}

MyTransformer& Model::transformer_model(const char* purpose) const {
  TF_CHECK(transformer_, purpose, " needs a transformer model");
  return *transformer_;
}

}  // namespace tf
