// The golden test: tiny networks built by PyTorch (tests/fixtures/gen_golden.py, torch_models.py) with their
// weights, inputs, logits, loss and gradients; the C++ models loaded with the same weights must agree.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "nn/model.hpp"
#include "ops/ops.hpp"

using namespace tf;
using nlohmann::json;

namespace {

json load_golden() {
  std::ifstream in(std::string(TF_FIXTURE_DIR) + "/golden.json");
  REQUIRE(in.good());
  return json::parse(in);
}

ModelConfig config_of(const json& c) {
  ModelConfig m;
  m.kind = c["kind"] == "sorter" ? ModelKind::Sorter : ModelKind::Transformer;
  const json& k = c["config"];
  m.vocab = k["vocab"];
  m.dim = k["dim"];
  m.heads = k["heads"];
  m.max_length = k["max_length"];
  if (m.kind == ModelKind::Sorter) {
    m.encoder_layers = k["encoder_layers"];
    m.decoder_layers = k["decoder_layers"];
  } else {
    m.layers = k["layers"];
    m.causal = c["causal"];
    m.rotary = c["rotary"];
  }
  return m;
}

void load_weights(const Module& net, const json& params) {
  auto named = net.named_parameters();
  CHECK(named.size() == params.size());
  for (auto& entry : named) {
    const std::string& name = entry.first;
    const Tensor& t = entry.second;
    INFO("parameter " << name);
    REQUIRE(params.contains(name));
    std::vector<float> v = params[name]["data"].get<std::vector<float>>();
    REQUIRE(static_cast<int64_t>(v.size()) == t.numel());
    t.copy_from(Tensor::from_vector(v, t.shape()));
  }
}

void check_close(const std::vector<float>& got, const std::vector<float>& want, const std::string& what) {
  REQUIRE(got.size() == want.size());
  float worst = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    float err = std::abs(got[i] - want[i]) / (1.f + std::abs(want[i]));
    worst = std::max(worst, err);
  }
  INFO(what << ": worst relative error " << worst);
  CHECK(worst < 1e-4f);
}

Ids ids(const json& v, const json& shape) {
  return Ids(v.get<std::vector<int32_t>>(), Shape(shape.get<std::vector<int64_t>>()));
}

}  // namespace

TEST_SUITE("golden") {
  TEST_CASE("logits, loss and gradients match PyTorch for the tiny networks") {
    json golden = load_golden();
    for (const json& c : golden["cases"]) {
      std::string name = c["name"];
      INFO("case " << name);
      Rng rng(0);
      Model model(config_of(c), rng);
      load_weights(model.module(), c["params"]);
      Tensor logits, loss;
      if (model.sorter()) {
        logits = model.sorter()->forward(ids(c["src"], c["shape"]), ids(c["tgt_in"], c["shape"]));
        loss = cross_entropy(logits, ids(c["tgt"], c["shape"]));
      } else {
        logits = model.token()->forward(ids(c["input"], c["input_shape"]));
        Tensor w = Tensor::from_vector(c["weight"].get<std::vector<float>>(), Shape{logits.shape().rows()});
        loss = cross_entropy(logits, ids(c["target"], c["input_shape"]), w);
      }
      check_close(logits.to_vector(), c["logits"].get<std::vector<float>>(), name + " logits");
      check_close({loss.item()}, {c["loss"].get<float>()}, name + " loss");
      loss.backward();
      for (auto& [pname, t] : model.module().named_parameters())
        check_close(t.grad().to_vector(), c["grads"][pname].get<std::vector<float>>(),
                    name + " grad of " + pname);
    }
  }
}
