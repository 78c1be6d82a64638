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

ParameterShapes ModelConfig::parameter_shapes() const {
  const int64_t V = vocab, C = dim;
  ParameterShapes p;
  auto add = [&](const std::string& name, std::vector<int64_t> shape) {
    p.emplace_back(name, std::move(shape));
  };
  auto linear = [&](const std::string& name, int64_t out, int64_t in, bool bias = true) {
    add(name + ".weight", {out, in});
    if (bias) add(name + ".bias", {out});
  };
  auto norm = [&](const std::string& name) { add(name + ".weight", {C}), add(name + ".bias", {C}); };
  auto attention = [&](const std::string& name, bool qkv_bias) {
    linear(name + ".qkv", 3 * C, C, qkv_bias);
    linear(name + ".mix", C, C);
  };
  auto ffn = [&](const std::string& name) {
    linear(name + ".0", 4 * C, C);
    linear(name + ".2", C, 4 * C);
  };
  auto block = [&](const std::string& name, const char* n1, const char* att, const char* n2, const char* f) {
    norm(name + n1), attention(name + att, kind == ModelKind::Sorter), norm(name + n2), ffn(name + f);
  };
  if (kind == ModelKind::Sorter) {
    add("src_emb.weight", {V, C});
    add("tgt_emb.weight", {V, C});
    for (int64_t i = 0; i < encoder_layers; ++i)
      block("enc." + std::to_string(i), ".ln1", ".attn", ".ln2", ".ffn");
    for (int64_t i = 0; i < decoder_layers; ++i) {
      std::string d = "dec." + std::to_string(i);
      norm(d + ".ln1"), attention(d + ".self_attn", true), norm(d + ".ln2");
      linear(d + ".cross_attn.q", C, C), linear(d + ".cross_attn.kv", 2 * C, C),
          linear(d + ".cross_attn.mix", C, C);
      norm(d + ".ln3"), ffn(d + ".ffn");
    }
    norm("ln_enc"), norm("ln_dec"), linear("out", V, C);
    return p;
  }
  add("embed.weight", {V, C});
  if (kind == ModelKind::Transformer) {
    if (!rotary) add("position.weight", {max_length, C});
    for (int64_t i = 0; i < layers; ++i)
      block("blocks." + std::to_string(i), ".norm1", ".attention", ".norm2", ".mlp");
    norm("norm");
  }
  linear("out", V, C);
  if (kind == ModelKind::WithPosition) add("position.weight", {max_length, C});
  return p;
}

int64_t ModelConfig::parameter_count() const {
  int64_t n = 0;
  for (const auto& [name, shape] : parameter_shapes()) {
    int64_t numbers = 1;
    for (int64_t d : shape) numbers *= d;
    n += numbers;
  }
  return n;
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
