#include "nn/model.hpp"

#include "nn/no_talking.hpp"
#include "util/error.hpp"

namespace tf {

Model::Model(const ModelConfig& config, Rng& rng, Device device) {
  config.validate();
  switch (config.kind) {
    case ModelKind::NoTalking: {
      auto m = std::make_unique<NoTalking>(config, rng, device);
      token_ = m.get();
      module_ = std::move(m);
      break;
    }
    case ModelKind::WithPosition: {
      auto m = std::make_unique<WithPosition>(config, rng, device);
      token_ = m.get();
      module_ = std::move(m);
      break;
    }
    case ModelKind::Transformer: {
      auto m = std::make_unique<MyTransformer>(config, rng, device);
      token_ = transformer_ = m.get();
      module_ = std::move(m);
      break;
    }
    case ModelKind::Sorter: {
      auto m = std::make_unique<Sorter>(config, rng, device);
      sorter_ = m.get();
      module_ = std::move(m);
      break;
    }
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
