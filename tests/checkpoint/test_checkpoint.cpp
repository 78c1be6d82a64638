// Checkpoints: everything a run needs comes back (step counts exactly, past float32's 2^24), the file layout
// is the documented one (docs/checkpoints.md), older files' float32 counts still load, and load_parameters
// either loads every parameter or changes nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>

#include "checkpoint/checkpoint.hpp"
#include "checkpoint_fixtures.hpp"
#include "io/file_bytes.hpp"
#include "io/safetensors.hpp"
#include "nn/layers.hpp"
#include "nn/model.hpp"
#include "nn/model_config.hpp"
#include "support/scratch_dir.hpp"
#include "support/torch_reader.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

using namespace tf;
using namespace tf::test;
namespace fs = std::filesystem;

namespace {

// A file written by hand: header JSON, then the data bytes.
std::vector<uint8_t> file_of(const std::string& header, const std::vector<uint8_t>& data) {
  std::vector<uint8_t> bytes;
  for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<uint8_t>(uint64_t(header.size()) >> (8 * i)));
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

std::string metadata_json() {
  return "\"__metadata__\":{\"tinyformer.format\":\"1\",\"tinyformer.config\":" +
         nlohmann::json(ModelConfig::sorter().to_json()).dump() + "}";
}

using test::ScratchDir;

}  // namespace

TEST_SUITE("checkpoint") {
  TEST_CASE("a checkpoint brings back parameters, optimizer state, config, vocab, step, RNG, metadata") {
    TinyNet model(6, 4, 1);
    Checkpoint ck = checkpoint_of(model);
    Checkpoint back = load_checkpoint_bytes(save_checkpoint_bytes(ck));
    check_same_tensors(back.params, ck.params);
    check_same_tensors(back.optimizer_state.slots, ck.optimizer_state.slots);
    CHECK(back.optimizer_state.counts == ck.optimizer_state.counts);
    CHECK(back.config_json == ck.config_json);
    CHECK(ModelConfig::from_json(back.config_json).to_json() == ck.config_json);
    CHECK(back.vocab == ck.vocab);
    CHECK(back.step == ck.step);
    CHECK(back.rng_state == ck.rng_state);
    CHECK(back.metadata == ck.metadata);
  }

  TEST_CASE("the file holds module names, optim.-prefixed state and the documented metadata keys") {
    TinyNet model(6, 4, 1);
    Checkpoint ck = checkpoint_of(model);
    SafetensorsFile file = read_safetensors(save_checkpoint_bytes(ck));
    std::vector<std::string> names;
    for (const auto& t : file.tensors) names.push_back(t.name);
    CHECK(names == std::vector<std::string>{"embed.weight", "norm.weight", "norm.bias", "out.weight",
                                            "out.bias", "optim.m.embed.weight"});
    REQUIRE(file.integers.size() == 1);  // the step count: I64 of shape [1], exact
    CHECK(file.integers[0].name == "optim.step");
    CHECK(file.integers[0].shape == std::vector<int64_t>{1});
    CHECK(file.integers[0].data == std::vector<int64_t>{kBigCount});
    CHECK(file.metadata.at("tinyformer.format") == "1");
    CHECK(file.metadata.at("tinyformer.step") == "1234");
    CHECK(file.metadata.at("tinyformer.config") == ck.config_json);
    CHECK(nlohmann::json::parse(file.metadata.at("tinyformer.vocab")) == nlohmann::json(ck.vocab));
    nlohmann::json rng = nlohmann::json::parse(file.metadata.at("tinyformer.rng"));
    REQUIRE(rng.size() == 4);
    CHECK(rng[0].get<std::string>() == std::to_string(ck.rng_state[0]));
    CHECK(file.metadata.at("task") == "toy");
  }

  TEST_CASE("a restored RNG state continues the same stream") {
    Rng rng(5);
    for (int i = 0; i < 3; ++i) rng.normal();
    Checkpoint ck = checkpoint_of(TinyNet(6, 4, 1));
    ck.rng_state = rng.state();
    Rng resumed(0);
    resumed.set_state(load_checkpoint_bytes(save_checkpoint_bytes(ck)).rng_state);
    for (int i = 0; i < 5; ++i) CHECK(resumed.normal() == rng.normal());
  }

  TEST_CASE("vocabulary and RNG state may be absent") {
    Checkpoint ck = checkpoint_of(TinyNet(6, 4, 1));
    ck.vocab.clear();
    ck.rng_state.clear();
    ck.optimizer_state = {};
    SafetensorsFile file = read_safetensors(save_checkpoint_bytes(ck));
    CHECK(file.metadata.count("tinyformer.vocab") == 0);
    CHECK(file.metadata.count("tinyformer.rng") == 0);
    Checkpoint back = load_checkpoint_bytes(save_checkpoint_bytes(ck));
    CHECK(back.vocab.empty());
    CHECK(back.rng_state.empty());
    CHECK(back.optimizer_state.empty());
  }

  TEST_CASE("the loss history is a typed field: a skipped step's loss is null in the file and NaN back") {
    Checkpoint ck = checkpoint_of(TinyNet(6, 4, 1));
    ck.losses = {2.5f, std::nanf(""), 0.125f};
    SafetensorsFile file = read_safetensors(save_checkpoint_bytes(ck));
    CHECK(file.metadata.at("tinyformer.losses") == "[2.5,null,0.125]");
    Checkpoint back = load_checkpoint_bytes(save_checkpoint_bytes(ck));
    REQUIRE(back.losses.size() == 3);
    CHECK(back.losses[0] == 2.5f);
    CHECK(std::isnan(back.losses[1]));
    CHECK(back.losses[2] == 0.125f);
    CHECK(back.metadata == ck.metadata);  // the key is the checkpoint's own, not other metadata
    ck.losses.clear();
    CHECK(read_safetensors(save_checkpoint_bytes(ck)).metadata.count("tinyformer.losses") == 0);
    ck.metadata["tinyformer.losses"] = "[1]";
    CHECK_THROWS_WITH_AS(save_checkpoint_bytes(ck), doctest::Contains("reserved"), Error);
    file.metadata["tinyformer.losses"] = "{\"a\": 1}";
    std::vector<std::pair<std::string, Tensor>> tensors;
    for (const auto& t : file.tensors)
      tensors.emplace_back(t.name, Tensor::from_vector(t.data, Shape(t.shape)));
    CHECK_THROWS_WITH_AS(load_checkpoint_bytes(write_safetensors(tensors, file.metadata)),
                         doctest::Contains("loss history is not a JSON array"), Error);
  }

  TEST_CASE("saving refuses reserved keys, optim. parameter names, a bad config and a negative step") {
    Checkpoint ck = checkpoint_of(TinyNet(6, 4, 1));
    Checkpoint bad = ck;
    bad.metadata["tinyformer.step"] = "1";
    CHECK_THROWS_WITH_AS(save_checkpoint_bytes(bad), doctest::Contains("reserved"), Error);
    bad = ck;
    bad.params.emplace_back("optim.x", Tensor::ones(Shape{1}));
    CHECK_THROWS_WITH_AS(save_checkpoint_bytes(bad), doctest::Contains("may not start with 'optim.'"), Error);
    bad = ck;
    bad.config_json = "{\"kind\":\"bogus\"}";
    CHECK_THROWS_WITH_AS(save_checkpoint_bytes(bad), doctest::Contains("unknown model 'bogus'"), Error);
    bad = ck;
    bad.step = -1;
    CHECK_THROWS_WITH_AS(save_checkpoint_bytes(bad), doctest::Contains("non-negative"), Error);
  }

  TEST_CASE("loading refuses files that are not Tinyformer checkpoints of this format") {
    std::vector<std::pair<std::string, Tensor>> t = {{"w", Tensor::ones(Shape{2})}};
    std::string config = ModelConfig::sorter().to_json();
    auto load_with = [&](const std::map<std::string, std::string>& metadata) {
      return load_checkpoint_bytes(write_safetensors(t, metadata));
    };
    CHECK_THROWS_WITH_AS(load_with({}), doctest::Contains("no 'tinyformer.format'"), Error);
    CHECK_THROWS_WITH_AS(load_with({{"tinyformer.format", "1"}}), doctest::Contains("no 'tinyformer.config'"),
                         Error);
    CHECK_THROWS_WITH_AS(load_with({{"tinyformer.format", "2"}, {"tinyformer.config", config}}),
                         doctest::Contains("format '2' is not supported"), Error);
    CHECK_THROWS_WITH_AS(load_with({{"tinyformer.format", "1"}, {"tinyformer.config", "{\"dim\":0}"}}),
                         doctest::Contains("dim must be"), Error);
    std::map<std::string, std::string> ok = {{"tinyformer.format", "1"}, {"tinyformer.config", config}};
    CHECK(load_with(ok).step == 0);
    struct Case {
      const char* key;
      const char* value;
      const char* message;
    };
    for (const Case& c : std::vector<Case>{{"tinyformer.step", "-3", "not a non-negative integer"},
                                           {"tinyformer.step", "12a", "not a non-negative integer"},
                                           {"tinyformer.step", "99999999999999999999", "too large"},
                                           {"tinyformer.vocab", "[\"a\", 3]", "entry 1 is not a string"},
                                           {"tinyformer.vocab", "not json", "not a JSON array"},
                                           {"tinyformer.rng", "[1, 2]", "non-string entry"},
                                           {"tinyformer.rng", "[\"18446744073709551616\"]", "too large"}}) {
      auto metadata = ok;
      metadata[c.key] = c.value;
      CAPTURE(c.value);
      CHECK_THROWS_WITH_AS(load_with(metadata), doctest::Contains(c.message), Error);
    }
  }

  TEST_CASE("step counts are I64 [1] entries, exact past 2^24, written before the float data") {
    Checkpoint ck = checkpoint_of(TinyNet(6, 4, 1));
    ck.optimizer_state.counts.emplace_back("step.out.bias", std::numeric_limits<int64_t>::max());
    std::vector<uint8_t> bytes = save_checkpoint_bytes(ck);
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[static_cast<size_t>(i)];
    auto header = nlohmann::json::parse(bytes.begin() + 8, bytes.begin() + 8 + static_cast<long>(n));
    CHECK(header["optim.step"] ==
          nlohmann::json::parse(R"({"dtype":"I64","shape":[1],"data_offsets":[0,8]})"));
    CHECK(header["optim.step.out.bias"]["data_offsets"] == nlohmann::json({8, 16}));
    std::vector<uint8_t> first(bytes.begin() + 8 + static_cast<long>(n),
                               bytes.begin() + 16 + static_cast<long>(n));
    CHECK(first ==
          std::vector<uint8_t>{0x03, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00});  // 2^40 + 3, little-endian
    Checkpoint back = load_checkpoint_bytes(bytes);
    CHECK(back.optimizer_state.counts == ck.optimizer_state.counts);
  }

  TEST_CASE("float32 step counts of files from before I64 counts come back among the optimizer's slots") {
    std::vector<uint8_t> data(8, 0);
    float count = 1234.f;
    std::memcpy(data.data(), &count, 4);
    std::string header = "{" + metadata_json() +
                         ",\"optim.steps\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                         "\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}";
    Checkpoint back = load_checkpoint_bytes(file_of(header, data));
    CHECK(back.optimizer_state.counts.empty());
    REQUIRE(back.optimizer_state.slots.size() == 1);
    CHECK(back.optimizer_state.slots[0].first == "steps");
    CHECK(back.optimizer_state.slots[0].second.to_vector() == std::vector<float>{1234.f});
    CHECK(back.params.size() == 1);
  }

  TEST_CASE("an I64 entry outside optim. or of more than one number is refused") {
    auto load_with = [](const std::string& name, const std::string& shape, size_t numbers) {
      std::string header = "{" + metadata_json() + ",\"" + name + "\":{\"dtype\":\"I64\",\"shape\":" + shape +
                           ",\"data_offsets\":[0," + std::to_string(8 * numbers) + "]}}";
      return load_checkpoint_bytes(file_of(header, std::vector<uint8_t>(8 * numbers, 0)));
    };
    CHECK(load_with("optim.steps", "[1]", 1).optimizer_state.counts == NamedCounts{{"steps", 0}});
    CHECK(load_with("optim.steps", "[]", 1).optimizer_state.counts == NamedCounts{{"steps", 0}});
    CHECK_THROWS_WITH_AS(load_with("embed.weight", "[1]", 1),
                         doctest::Contains("'embed.weight' is I64; only the optimizer's step counts"), Error);
    CHECK_THROWS_WITH_AS(load_with("optim.steps", "[2]", 2),
                         doctest::Contains("'optim.steps' should hold one number, holds 2"), Error);
    CHECK_THROWS_WITH_AS(load_with("optim.steps", "[0]", 0), doctest::Contains("holds 0"), Error);
  }

  TEST_CASE("a tensor with more than four dimensions is a clear error") {
    std::string header = "{\"__metadata__\":{\"tinyformer.format\":\"1\",\"tinyformer.config\":" +
                         nlohmann::json(ModelConfig::sorter().to_json()).dump() +
                         "},\"w\":{\"dtype\":\"F32\",\"shape\":[1,1,1,1,1],\"data_offsets\":[0,4]}}";
    std::vector<uint8_t> bytes;
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<uint8_t>(uint64_t(header.size()) >> (8 * i)));
    bytes.insert(bytes.end(), header.begin(), header.end());
    bytes.resize(bytes.size() + 4, 0);
    CHECK_THROWS_WITH_AS(load_checkpoint_bytes(bytes), doctest::Contains("'w' has 5 dimensions"), Error);
  }

  TEST_CASE("every truncation of a checkpoint is a clear error") {
    auto bytes = save_checkpoint_bytes(checkpoint_of(TinyNet(6, 4, 1)));
    for (size_t len = 0; len < bytes.size(); len += 7) {
      CAPTURE(len);
      std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(len));
      CHECK_THROWS_AS(load_checkpoint_bytes(cut), Error);
    }
  }

  TEST_CASE("metadata arrays are bounded as they stream: vocabulary by the config, losses by the step") {
    Checkpoint ck = checkpoint_of(TinyNet(6, 4, 1));
    ck.step = 3;
    SafetensorsFile file = read_safetensors(save_checkpoint_bytes(ck));
    std::vector<std::pair<std::string, Tensor>> tensors;
    for (const auto& t : file.tensors)
      tensors.emplace_back(t.name, Tensor::from_vector(t.data, Shape(t.shape)));
    auto load_with = [&](const char* key, const std::string& value) {
      auto metadata = file.metadata;
      metadata[key] = value;
      return load_checkpoint_bytes(write_safetensors(tensors, metadata, file.integers));
    };
    auto repeated = [](const std::string& entry, size_t n) {
      std::string s = "[";
      for (size_t i = 0; i < n; ++i) s += (i ? "," : "") + entry;
      return s + "]";
    };
    auto start = std::chrono::steady_clock::now();
    // 3 million empty words (9 MB) for a vocab of 6, 4 million losses (8 MB) for 3 steps: each refused at
    // the first entry too many, not after a document of millions of values.
    CHECK_THROWS_WITH_AS(load_with("tinyformer.vocab", repeated("\"\"", 3000000)),
                         doctest::Contains("vocabulary has more than 6 entries"), Error);
    CHECK_THROWS_WITH_AS(load_with("tinyformer.losses", repeated("0", 4000000)),
                         doctest::Contains("loss history has more than 3 entries"), Error);
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 5.0);
    CHECK(load_with("tinyformer.losses", "[1,null,2]").losses.size() == 3);
    CHECK_THROWS_WITH_AS(load_with("tinyformer.rng", repeated("\"1\"", 5)),
                         doctest::Contains("RNG state has more than 4 entries"), Error);
    CHECK_THROWS_WITH_AS(load_with("tinyformer.losses", "[1e39]"), doctest::Contains("not a float32 number"),
                         Error);
    CHECK_THROWS_WITH_AS(load_with("tinyformer.vocab", "[[\"a\"]]"), doctest::Contains("not a plain value"),
                         Error);
    std::string long_config = "{\"kind\":\"transformer\"" + std::string(2 << 20, ' ') + "}";
    CHECK_THROWS_WITH_AS(load_with("tinyformer.config", long_config), doctest::Contains("over the limit"),
                         Error);
  }

  TEST_CASE("a vocabulary names each word once, and a file holds a loss per step at most: saved and loaded") {
    Checkpoint ck = checkpoint_of(TinyNet(6, 4, 1));
    Checkpoint twice = ck;
    twice.vocab[3] = "the";
    CHECK_THROWS_WITH_AS(save_checkpoint_bytes(twice),
                         doctest::Contains("vocabulary has the word \"the\" twice (token ids 2 and 3)"),
                         Error);
    SafetensorsFile file = read_safetensors(save_checkpoint_bytes(ck));
    std::vector<std::pair<std::string, Tensor>> tensors;
    for (const auto& t : file.tensors)
      tensors.emplace_back(t.name, Tensor::from_vector(t.data, Shape(t.shape)));
    file.metadata["tinyformer.vocab"] = nlohmann::json(twice.vocab).dump();
    CHECK_THROWS_WITH_AS(load_checkpoint_bytes(write_safetensors(tensors, file.metadata, file.integers)),
                         doctest::Contains("twice (token ids 2 and 3)"), Error);
    Checkpoint more = ck;
    more.step = 2;
    more.losses = {1.f, 2.f, 3.f};
    CHECK_THROWS_WITH_AS(save_checkpoint_bytes(more), doctest::Contains("3 losses for 2 steps"), Error);
  }

  TEST_CASE(
      "a file with more than twice the entries its model and optimizer state make is refused, one named") {
    Checkpoint ck = checkpoint_of(TinyNet(6, 4, 1));
    SafetensorsFile file = read_safetensors(save_checkpoint_bytes(ck));
    std::vector<std::pair<std::string, Tensor>> tensors;
    for (const auto& t : file.tensors)
      tensors.emplace_back(t.name, Tensor::from_vector(t.data, Shape(t.shape)));
    for (int i = 0; i < 200; ++i) tensors.emplace_back("extra." + std::to_string(i), Tensor::zeros(Shape{0}));
    CHECK_THROWS_WITH_AS(
        load_checkpoint_bytes(write_safetensors(tensors, file.metadata, file.integers)),
        doctest::Contains("more than twice what its model's parameters and their optimizer state make (69): "
                          "the checkpoint lacks the model's parameter(s) 'position.weight'"),
        Error);
  }

  TEST_CASE("checkpoint files round trip and errors name the path") {
    ScratchDir dir("checkpoint_files");
    std::string path = (dir.path / "run.safetensors").string();
    TinyNet model(6, 4, 1);
    Checkpoint ck = checkpoint_of(model);
    save_checkpoint(path, ck);
    Checkpoint back = load_checkpoint(path);
    check_same_tensors(back.params, ck.params);
    CHECK(back.step == ck.step);
    auto bytes = read_file_bytes(path);
    bytes.resize(bytes.size() / 2);
    write_file_atomically(path, bytes);
    CHECK_THROWS_WITH_AS(load_checkpoint(path), doctest::Contains(path.c_str()), Error);
  }
}

#ifndef __EMSCRIPTEN__
TEST_SUITE("checkpoint") {
  TEST_CASE("PyTorch reads a checkpoint: parameters as torch.float32, step counts as exact torch.int64") {
    Checkpoint ck = checkpoint_of(TinyNet(6, 4, 1));
    std::optional<std::map<std::string, nlohmann::json>> tensors = torch_reads(ck, "checkpoint_torch_read");
    if (!tensors) return;
    std::map<std::string, nlohmann::json>& by_name = *tensors;
    REQUIRE(by_name.count("optim.step") == 1);
    CHECK(by_name["optim.step"]["torch_dtype"] == "torch.int64");
    CHECK(by_name["optim.step"]["shape"] == nlohmann::json({1}));
    CHECK(by_name["optim.step"]["values"] == nlohmann::json({kBigCount}));  // 2^40 + 3, not 2^40
    for (const auto& param : ck.params) {
      const std::string& name = param.first;  // a named reference: clang's CAPTURE cannot take a binding
      CAPTURE(name);
      REQUIRE(by_name.count(name) == 1);
      CHECK(by_name[name]["torch_dtype"] == "torch.float32");
      CHECK(by_name[name]["shape"].get<std::vector<int64_t>>() == param.second.shape().dims());
    }
    CHECK(by_name["optim.m.embed.weight"]["sum"].get<double>() == 12.0);  // 24 numbers of 0.5
    CHECK(by_name.size() == ck.params.size() + 2);
  }
}
#endif

TEST_SUITE("load_parameters") {
  TEST_CASE("load_parameters copies every parameter by name into a fresh model") {
    TinyNet trained(6, 4, 1), fresh(6, 4, 2);
    REQUIRE(snapshot(trained) != snapshot(fresh));
    Checkpoint ck = load_checkpoint_bytes(save_checkpoint_bytes(checkpoint_of(trained)));
    load_parameters(fresh, ck);
    CHECK(snapshot(fresh) == snapshot(trained));
    ck.params[0].second.fill_(3.f);  // the model owns its numbers: later changes to the checkpoint don't leak
    CHECK(snapshot(fresh) == snapshot(trained));
  }

  TEST_CASE("parameters may come in any order and optim. names are ignored") {
    TinyNet trained(6, 4, 1), fresh(6, 4, 2);
    Checkpoint ck = checkpoint_of(trained);
    std::reverse(ck.params.begin(), ck.params.end());
    ck.params.emplace_back("optim.m.out.bias", Tensor::ones(Shape{6}));
    load_parameters(fresh, ck);
    CHECK(snapshot(fresh) == snapshot(trained));
  }

  TEST_CASE(
      "a missing, extra, duplicated, undefined or mis-shaped parameter fails and leaves the model as it "
      "was") {
    TinyNet trained(6, 4, 1);
    Checkpoint good = checkpoint_of(trained);
    struct Case {
      const char* what;
      std::function<void(Checkpoint&)> spoil;
      const char* message;
    };
    std::vector<Case> cases = {
        {"missing", [](Checkpoint& c) { c.params.erase(c.params.begin() + 2); },
         "lacks the model's parameter(s) 'norm.bias'"},
        {"extra", [](Checkpoint& c) { c.params.emplace_back("head.weight", Tensor::ones(Shape{2})); },
         "the model does not: 'head.weight'"},
        {"duplicated", [](Checkpoint& c) { c.params.push_back(c.params[1]); }, "'norm.weight' twice"},
        {"undefined", [](Checkpoint& c) { c.params[3].second = Tensor(); }, "'out.weight' is undefined"},
        {"mis-shaped", [](Checkpoint& c) { c.params[4].second = Tensor::zeros(Shape{7}); },
         "'out.bias' has shape (7) in the checkpoint but (6) in the model"},
        {"transposed",
         [](Checkpoint& c) {
           c.params[3].second = Tensor::zeros(Shape{4, 6});
         },
         "has shape (4, 6) in the checkpoint but (6, 4) in the model"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.what);
      TinyNet fresh(6, 4, 2);
      auto before = snapshot(fresh);
      Checkpoint bad = good;
      c.spoil(bad);
      CHECK_THROWS_WITH_AS(load_parameters(fresh, bad), doctest::Contains(c.message), Error);
      CHECK(snapshot(fresh) == before);
    }
  }

  TEST_CASE("a checkpoint of another size names both shapes") {
    TinyNet small(6, 4, 1), wide(6, 8, 2);
    auto before = snapshot(wide);
    CHECK_THROWS_WITH_AS(load_parameters(wide, checkpoint_of(small)),
                         doctest::Contains("'embed.weight' has shape (6, 4) in the checkpoint but (6, 8)"),
                         Error);
    CHECK(snapshot(wide) == before);
  }

  TEST_CASE("a course model's checkpoint rebuilds the model from its config and loads into it") {
    for (const ModelConfig& config : {ModelConfig::transformer(14, 32, 2, 2), ModelConfig::sorter()}) {
      CAPTURE(config.to_json());
      Rng rng_trained(1), rng_fresh(2);
      Model trained(config, rng_trained);
      Checkpoint ck;
      ck.config_json = config.to_json();
      ck.params = trained.module().named_parameters();
      Checkpoint back = load_checkpoint_bytes(save_checkpoint_bytes(ck));
      Model rebuilt(ModelConfig::from_json(back.config_json), rng_fresh);
      REQUIRE(snapshot(rebuilt.module()) != snapshot(trained.module()));
      load_parameters(rebuilt.module(), back);
      CHECK(snapshot(rebuilt.module()) == snapshot(trained.module()));
    }
  }
}
