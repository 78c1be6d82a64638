#include "nn/model_config.hpp"

#include <nlohmann/json.hpp>

#include "util/error.hpp"

namespace tf {

ModelConfig ModelConfig::transformer(int64_t vocab, int64_t dim, int64_t heads, int64_t layers) {
  ModelConfig c;
  c.vocab = vocab;
  c.dim = dim;
  c.heads = heads;
  c.layers = layers;
  return c;
}

ModelConfig ModelConfig::sorter() {
  ModelConfig c;
  c.kind = ModelKind::Sorter;
  c.vocab = 11;
  c.dim = 64;
  c.heads = 4;
  c.max_length = 32;
  return c;
}

void ModelConfig::validate() const {
  TF_CHECK(vocab >= 2 && vocab <= 1000000, "vocab must be between 2 and 1000000, got ", vocab);
  TF_CHECK(dim >= 1 && dim <= 8192, "dim must be between 1 and 8192, got ", dim);
  TF_CHECK(max_length >= 1 && max_length <= 65536, "max_length must be between 1 and 65536, got ",
           max_length);
  bool attends = kind == ModelKind::Transformer || kind == ModelKind::Sorter;
  if (!attends) return;
  TF_CHECK(heads >= 1 && dim % heads == 0, "dim ", dim, " must be a positive multiple of heads ", heads);
  TF_CHECK(!rotary || (dim / heads) % 2 == 0, "rotary positions need an even head size, got ", dim / heads);
  if (kind == ModelKind::Transformer)
    TF_CHECK(layers >= 0 && layers <= 256, "layers must be 0..256, got ", layers);
  if (kind == ModelKind::Sorter)
    TF_CHECK(encoder_layers >= 1 && decoder_layers >= 1 && encoder_layers <= 64 && decoder_layers <= 64,
             "the sorter needs 1..64 encoder and decoder layers");
}

std::string ModelConfig::to_json() const {
  nlohmann::json j = {{"kind", kind_name(kind)},
                      {"vocab", vocab},
                      {"dim", dim},
                      {"heads", heads},
                      {"layers", layers},
                      {"max_length", max_length},
                      {"causal", causal},
                      {"rotary", rotary},
                      {"encoder_layers", encoder_layers},
                      {"decoder_layers", decoder_layers}};
  return j.dump();
}

ModelConfig ModelConfig::from_json(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    fail("model config is not valid JSON: ", e.what());
  }
  TF_CHECK(j.is_object(), "model config must be a JSON object");
  ModelConfig c;
  for (auto& [key, value] : j.items()) {
    try {
      if (key == "kind")
        c.kind = parse_kind(value.get<std::string>());
      else if (key == "vocab")
        c.vocab = value.get<int64_t>();
      else if (key == "dim")
        c.dim = value.get<int64_t>();
      else if (key == "heads")
        c.heads = value.get<int64_t>();
      else if (key == "layers")
        c.layers = value.get<int64_t>();
      else if (key == "max_length")
        c.max_length = value.get<int64_t>();
      else if (key == "causal")
        c.causal = value.get<bool>();
      else if (key == "rotary")
        c.rotary = value.get<bool>();
      else if (key == "encoder_layers")
        c.encoder_layers = value.get<int64_t>();
      else if (key == "decoder_layers")
        c.decoder_layers = value.get<int64_t>();
      else
        fail("unknown model config field '", key, "'");
    } catch (const nlohmann::json::exception&) {
      fail("model config field '", key, "' has the wrong type");
    }
  }
  c.validate();
  return c;
}

std::string kind_name(ModelKind kind) {
  switch (kind) {
    case ModelKind::NoTalking:
      return "notalking";
    case ModelKind::WithPosition:
      return "withposition";
    case ModelKind::Transformer:
      return "transformer";
    case ModelKind::Sorter:
      return "sorter";
  }
  return "?";
}

ModelKind parse_kind(const std::string& name) {
  if (name == "notalking") return ModelKind::NoTalking;
  if (name == "withposition") return ModelKind::WithPosition;
  if (name == "transformer") return ModelKind::Transformer;
  if (name == "sorter") return ModelKind::Sorter;
  fail("unknown model '", name, "' (expected notalking, withposition, transformer or sorter)");
}

}  // namespace tf
