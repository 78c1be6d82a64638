// What a model is: its family and sizes. Stored as JSON in checkpoint metadata so a file rebuilds its model.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tf {

// The largest model any front end builds: 400 MB of float32 weights (with gradients and Adam state,
// 1.6 GB, near what a browser tab's wasm memory can hold).
constexpr int64_t kMaxParameters = 100000000;

// Tensors by name with their shapes: what a model has, or what a file claims, before numbers exist.
using ParameterShapes = std::vector<std::pair<std::string, std::vector<int64_t>>>;

enum class ModelKind { NoTalking, WithPosition, Transformer, Sorter };

struct ModelConfig {
  ModelKind kind = ModelKind::Transformer;
  int64_t vocab = 2002;
  int64_t dim = 128;
  int64_t heads = 4;
  int64_t layers = 4;  // MyTransformer blocks
  int64_t max_length = 64;
  bool causal = false;         // attention only to the left (GPT-style)
  bool rotary = false;         // rotary positions in attention instead of a learned position table
  int64_t encoder_layers = 2;  // sorter only
  int64_t decoder_layers = 2;  // sorter only

  // The course's models with their defaults.
  static ModelConfig transformer(int64_t vocab, int64_t dim = 128, int64_t heads = 4, int64_t layers = 4);
  static ModelConfig sorter();  // page 000: vocab 11, d 64, 4 heads, 2 + 2 blocks, max length 32

  // The parameters the model these settings build has, by Module name in its order, and the numbers they
  // hold (checked against built models in tests/run/test_saved_run.cpp), so a file's claims can be checked
  // before anything is built.
  ParameterShapes parameter_shapes() const;
  int64_t parameter_count() const;
  void validate() const;  // throws tf::Error naming the bad field; also refuses over kMaxParameters
  std::string to_json() const;
  static ModelConfig from_json(const std::string& json);  // validates; unknown fields are an error
};

std::string kind_name(ModelKind kind);          // "notalking", "withposition", "transformer", "sorter"
ModelKind parse_kind(const std::string& name);  // throws on an unknown name

}  // namespace tf
