#include "nn/model_config.hpp"

#include <nlohmann/json.hpp>

#include "io/json_fields.hpp"
#include "util/error.hpp"
#include "util/names.hpp"

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

int64_t ModelConfig::parameter_count() const {
  const int64_t V = vocab, C = dim, L = max_length;
  const int64_t norm = 2 * C, linear = C * C + C;  // a LayerNorm; a C -> C Linear with bias
  switch (kind) {
    case ModelKind::NoTalking:
      return V * C + (V * C + V);  // embed, out
    case ModelKind::WithPosition:
      return V * C + L * C + (V * C + V);
    case ModelKind::Transformer: {
      // norm1, qkv (no bias), mix, norm2, mlp 0 (C -> 4C), mlp 2 (4C -> C)
      int64_t block = norm + 3 * C * C + linear + norm + (4 * C * C + 4 * C) + (4 * C * C + C);
      return V * C + (rotary ? 0 : L * C) + layers * block + norm + (V * C + V);
    }
    case ModelKind::Sorter: {
      int64_t ffn = (4 * C * C + 4 * C) + (4 * C * C + C);
      int64_t self_attention = 3 * (C * C + C) + linear;            // qkv with bias, mix
      int64_t cross_attention = linear + 2 * (C * C + C) + linear;  // q, kv, mix
      int64_t encoder = norm + self_attention + norm + ffn;
      int64_t decoder = 3 * norm + self_attention + cross_attention + ffn;
      return 2 * V * C + encoder_layers * encoder + decoder_layers * decoder + 2 * norm + (V * C + V);
    }
  }
  return 0;
}

void ModelConfig::validate() const {
  TF_CHECK(vocab >= 2 && vocab <= 1000000, "vocab must be between 2 and 1000000, got ", vocab);
  TF_CHECK(dim >= 1 && dim <= 8192, "dim must be between 1 and 8192, got ", dim);
  TF_CHECK(max_length >= 1 && max_length <= 65536, "max_length must be between 1 and 65536, got ",
           max_length);
  if (kind == ModelKind::Transformer || kind == ModelKind::Sorter) {
    TF_CHECK(heads >= 1 && dim % heads == 0, "dim ", dim, " must be a positive multiple of heads ", heads);
    TF_CHECK(!rotary || (dim / heads) % 2 == 0, "rotary positions need an even head size, got ", dim / heads);
  }
  if (kind == ModelKind::Transformer)
    TF_CHECK(layers >= 0 && layers <= 256, "layers must be 0..256, got ", layers);
  if (kind == ModelKind::Sorter)
    TF_CHECK(encoder_layers >= 1 && decoder_layers >= 1 && encoder_layers <= 64 && decoder_layers <= 64,
             "the sorter needs 1..64 encoder and decoder layers");
  TF_CHECK(parameter_count() <= kMaxParameters, "this ", kind_name(kind), " would hold ", parameter_count(),
           " parameters, more than Tinyformer's limit of ", kMaxParameters);
}

namespace {

const json_fields::Fields<ModelConfig>& json_form() {
  namespace jf = json_fields;
  static const jf::Fields<ModelConfig> fields = {jf::named("kind", &ModelConfig::kind, kind_name, parse_kind),
                                                 jf::field("vocab", &ModelConfig::vocab),
                                                 jf::field("dim", &ModelConfig::dim),
                                                 jf::field("heads", &ModelConfig::heads),
                                                 jf::field("layers", &ModelConfig::layers),
                                                 jf::field("max_length", &ModelConfig::max_length),
                                                 jf::field("causal", &ModelConfig::causal),
                                                 jf::field("rotary", &ModelConfig::rotary),
                                                 jf::field("encoder_layers", &ModelConfig::encoder_layers),
                                                 jf::field("decoder_layers", &ModelConfig::decoder_layers)};
  return fields;
}

}  // namespace

std::string ModelConfig::to_json() const { return json_fields::write_fields(*this, json_form()).dump(); }

ModelConfig ModelConfig::from_json(const std::string& text) {
  const std::string what = "model config";
  ModelConfig c;
  json_fields::read_fields(c, json_fields::parse_object(text, what), what, json_form());
  c.validate();
  return c;
}

namespace {
constexpr NameTable<ModelKind, 4> kKindNames = {{ModelKind::NoTalking, "notalking"},
                                                {ModelKind::WithPosition, "withposition"},
                                                {ModelKind::Transformer, "transformer"},
                                                {ModelKind::Sorter, "sorter"}};
}  // namespace

std::string kind_name(ModelKind kind) { return name_in(kKindNames, kind); }

ModelKind parse_kind(const std::string& name) { return value_in(kKindNames, name, "model"); }

}  // namespace tf
