// Checkpoint tests' fixtures: a small model with nested parameter names, a checkpoint of it with every field
// set, and bitwise comparisons of models and tensor lists.
#pragma once

#include <doctest/doctest.h>

#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint/checkpoint.hpp"
#include "nn/layers.hpp"
#include "nn/model.hpp"
#include "nn/model_config.hpp"
#include "support/scratch_dir.hpp"
#include "support/torch_reader.hpp"
#include "util/rng.hpp"

namespace tf::test {

// A small model with nested names: embed.weight, norm.weight, norm.bias, out.weight, out.bias.
class TinyNet : public Module {
 public:
  TinyNet(int64_t vocab, int64_t dim, uint64_t seed)
      : rng_(seed), embed(vocab, dim, rng_), norm(dim), out(dim, vocab, true, rng_) {
    register_module("embed", embed);
    register_module("norm", norm);
    register_module("out", out);
  }

 private:
  Rng rng_;

 public:
  Embedding embed;
  LayerNorm norm;
  Linear out;
};

inline std::vector<uint32_t> bits_of(const Tensor& t) {
  std::vector<float> v = t.to_vector();
  std::vector<uint32_t> out(v.size());
  if (!v.empty()) std::memcpy(out.data(), v.data(), v.size() * 4);
  return out;
}

// Every parameter's bits, to show a model did or did not change.
inline std::vector<std::vector<uint32_t>> snapshot(const Module& m) {
  std::vector<std::vector<uint32_t>> out;
  for (const auto& [name, t] : m.named_parameters()) out.push_back(bits_of(t));
  return out;
}

constexpr int64_t kBigCount = (int64_t{1} << 40) + 3;  // float32 would store 2^40

inline Checkpoint checkpoint_of(const TinyNet& model) {
  Checkpoint ck;
  ck.config_json = ModelConfig::transformer(6, 4, 1, 1).to_json();
  ck.vocab = {"<unk>", "_", "the", "cat", "don't", "\xc3\xa9t\xc3\xa9"};
  ck.step = 1234;
  Rng rng(99);
  rng.normal();  // leaves a spare normal, so all four state words matter
  ck.rng_state = rng.state();
  ck.metadata = {{"task", "toy"}, {"schedule.lr", "0.001"}};
  for (const auto& [name, t] : model.named_parameters()) ck.params.emplace_back(name, t.clone());
  ck.optimizer_state.counts = {{"step", kBigCount}};
  ck.optimizer_state.slots = {{"m.embed.weight", Tensor::full(Shape{6, 4}, 0.5f)}};
  return ck;
}

inline void check_same_tensors(const std::vector<std::pair<std::string, Tensor>>& a,
                               const std::vector<std::pair<std::string, Tensor>>& b) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CAPTURE(a[i].first);
    CHECK(a[i].first == b[i].first);
    CHECK(a[i].second.shape() == b[i].second.shape());
    CHECK(bits_of(a[i].second) == bits_of(b[i].second));
  }
}
#ifndef __EMSCRIPTEN__
// What PyTorch reads from `ck` saved as a file (in a scratch folder named `name`), by tensor name; nothing
// without torch and numpy.
inline std::optional<std::map<std::string, nlohmann::json>> torch_reads(const Checkpoint& ck,
                                                                        const std::string& name) {
  ScratchDir dir(name);
  std::string path = (dir.path / "run.safetensors").string();
  save_checkpoint(path, ck);
  return torch_tensors(path);
}
#endif
}  // namespace tf::test
