// Saved runs (core/run/saved_run.hpp) and the hostile-file checks behind them: a file's claims are checked
// before anything is built or allocated, JSON from files is depth-limited and typed, and each failure is a
// tf::Error that names the field (or the file) without a JSON library message.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <string>

#include "io/file_bytes.hpp"
#include "io/json_fields.hpp"
#include "io/safetensors.hpp"
#include "run/saved_run.hpp"
#include "run/session.hpp"
#include "sample/write_text.hpp"
#include "support/scratch_dir.hpp"
#include "train/trainer.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {

TrainConfig small_toy() {
  TrainConfig c = TrainConfig::for_task("toy");
  c.steps = 6;
  c.batch = 8;
  c.seed = 2;
  return c;
}

TrainConfig small_sort() {
  TrainConfig c = TrainConfig::for_task("sort");
  c.steps = 4;
  c.batch = 4;
  return c;
}

std::vector<uint8_t> trained_bytes(const TrainConfig& c, int steps) {
  Trainer t(c, make_task(c));
  for (int i = 0; i < steps; ++i) t.train_step();
  return save_checkpoint_bytes(t.checkpoint());
}

SavedRun saved(const std::vector<uint8_t>& bytes) { return load_saved_run_bytes(bytes.data(), bytes.size()); }

// The file's tensors and metadata, after `edit` changed them.
std::vector<uint8_t> edited(const std::vector<uint8_t>& bytes,
                            const std::function<void(std::vector<std::pair<std::string, Tensor>>&,
                                                     std::map<std::string, std::string>&)>& edit) {
  SafetensorsFile f = read_safetensors(bytes);
  std::vector<std::pair<std::string, Tensor>> tensors;
  for (const auto& t : f.tensors) tensors.emplace_back(t.name, Tensor::from_vector(t.data, Shape(t.shape)));
  edit(tensors, f.metadata);
  return write_safetensors(tensors, f.metadata, f.integers);
}

// The file as Tinyformer wrote it before step counts were I64: each count a float32 tensor of shape [1];
// with doubled_prefix also from before the optimizer's names lost their doubled "optim.optim." prefix.
std::vector<uint8_t> older_file(const std::vector<uint8_t>& bytes, bool doubled_prefix) {
  SafetensorsFile f = read_safetensors(bytes);
  std::vector<std::pair<std::string, Tensor>> tensors;
  for (const auto& e : f.integers)
    tensors.emplace_back(e.name, Tensor::from_vector({static_cast<float>(e.data.at(0))}, Shape{1}));
  for (const auto& t : f.tensors) tensors.emplace_back(t.name, Tensor::from_vector(t.data, Shape(t.shape)));
  if (doubled_prefix)
    for (auto& [name, t] : tensors)
      if (name.rfind("optim.", 0) == 0) name = "optim." + name;
  return write_safetensors(tensors, f.metadata);
}

std::string nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

}  // namespace

TEST_SUITE("saved_run") {
  TEST_CASE("a config's parameter count is the count of the model it builds") {
    std::vector<ModelConfig> configs = {ModelConfig::transformer(14, 32, 1, 1),
                                        ModelConfig::transformer(30, 16, 2, 3), ModelConfig::sorter()};
    ModelConfig rotary = ModelConfig::transformer(20, 16, 2, 2);
    rotary.rotary = true;
    configs.push_back(rotary);
    for (ModelKind kind : {ModelKind::NoTalking, ModelKind::WithPosition}) {
      ModelConfig c = ModelConfig::transformer(25, 12, 1, 1);
      c.kind = kind;
      configs.push_back(c);
    }
    ModelConfig deep_sorter = ModelConfig::sorter();
    deep_sorter.encoder_layers = 3;
    deep_sorter.decoder_layers = 1;
    configs.push_back(deep_sorter);
    for (const ModelConfig& c : configs) {
      CAPTURE(c.to_json());
      Rng rng(0);
      Model model(c, rng);
      CHECK(c.parameter_count() == model.module().parameter_count());
      ParameterShapes built;
      for (const auto& [name, t] : model.module().named_parameters())
        built.emplace_back(name, t.shape().dims());
      CHECK(c.parameter_shapes() == built);  // names and shapes, in the model's order
    }
    CHECK(ModelConfig::transformer(2002).parameter_count() == 1314514);  // docs/checkpoints.md
  }

  TEST_CASE("a small file whose config asks for a billion parameters fails at once") {
    std::map<std::string, std::string> meta = {
        {"tinyformer.format", "1"},
        {"tinyformer.config", ModelConfig::transformer(1000000, 1024, 4, 1).to_json()}};
    auto start = std::chrono::steady_clock::now();
    std::vector<uint8_t> bytes = write_safetensors({{"w", Tensor::ones(Shape{2})}}, meta);
    CHECK(bytes.size() < 400);
    CHECK_THROWS_WITH_AS(saved(bytes), doctest::Contains("more than Tinyformer's limit of 100000000"), Error);
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 1.0);
  }

  TEST_CASE("a config under the limit must still match the file's tensors before a model is built") {
    std::vector<uint8_t> bytes = trained_bytes(small_toy(), 1);
    ModelConfig big = ModelConfig::transformer(14, 1024, 4, 4);
    std::vector<uint8_t> bigger = edited(bytes, [&](auto&, auto& meta) {
      meta["tinyformer.config"] = big.to_json();
      meta.erase("tinyformer.train");
    });
    std::string message = "describes a transformer of " + std::to_string(big.parameter_count()) +
                          " parameters, but its tensors hold " +
                          std::to_string(saved(bytes).model.parameter_count());
    CHECK_THROWS_WITH_AS(saved(bigger), doctest::Contains(message.c_str()), Error);
  }

  TEST_CASE("devices, directories and files over the cap are refused before reading") {
    test::ScratchDir dir("saved_run_files");
    CHECK_THROWS_WITH_AS(read_file_bytes("/dev/zero"), doctest::Contains("it is a device, not a file"),
                         Error);
    CHECK_THROWS_WITH_AS(load_saved_run("/dev/zero"), doctest::Contains("'/dev/zero'"), Error);
    CHECK_THROWS_WITH_AS(load_saved_run(dir.path.string()), doctest::Contains("it is a directory"), Error);
    std::string path = (dir.path / "twenty.bin").string();
    std::ofstream(path) << "01234567890123456789";
    CHECK(read_file_bytes(path, 20).size() == 20);
    CHECK_THROWS_WITH_AS(read_file_bytes(path, 19), doctest::Contains("over the limit of 19"), Error);
  }

  TEST_CASE("JSON nested tens of thousands deep is a clear error, not a stack overflow") {
    CHECK_THROWS_WITH_AS(json_fields::parse(nested(50000), "test value"),
                         doctest::Contains("test value nests deeper than 16 levels"), Error);
    CHECK(json_fields::parse(nested(16), "test value").is_array());
    std::string deep_train =
        "{\"task\":\"toy\",\"model\":" + std::string(40000, '[') + std::string(40000, ']') + "}";
    CHECK_THROWS_WITH_AS(TrainConfig::from_json(deep_train), doctest::Contains("nests deeper"), Error);
    std::vector<uint8_t> bytes = edited(trained_bytes(small_toy(), 1),
                                        [&](auto&, auto& meta) { meta["tinyformer.train"] = deep_train; });
    CHECK_THROWS_WITH_AS(saved(bytes), doctest::Contains("training config nests deeper than 16 levels"),
                         Error);
  }

  TEST_CASE("config fields are read as exactly their type") {
    struct Case {
      std::string json, message;
    };
    // Each case's JSON refused by `parse` with its message.
    auto refuses = [](auto parse, const std::vector<Case>& cases) {
      for (const Case& c : cases) {
        CAPTURE(c.json);
        CHECK_THROWS_WITH_AS(parse(c.json), doctest::Contains(c.message.c_str()), Error);
      }
    };
    refuses(
        ModelConfig::from_json,
        {{"{\"dim\": 31.5}", "model config field 'dim' has the wrong type: must be an integer, got 31.5"},
         {"{\"dim\": 1e300}", "model config field 'dim' has the wrong type: must be an integer, got 1e+300"},
         {"{\"dim\": 18446744073709551615}",
          "model config field 'dim' must be -1099511627776..1099511627776"},
         {"{\"kind\": 3}", "model config field 'kind' has the wrong type: must be a string, got a number"},
         {"{\"causal\": 1}", "model config field 'causal' has the wrong type: must be true or false, got 1"},
         {"[1]", "model config must be a JSON object, got an array"},
         {"{\"dim\": ", "model config is not valid JSON (at byte 9)"}});
    refuses(TrainConfig::from_json,
            {{"{\"task\": \"toy\", \"steps\": 31.5}",
              "training config field 'steps' has the wrong type: must be an integer, got 31.5"},
             {"{\"task\": \"toy\", \"steps\": \"10\"}",
              "training config field 'steps' has the wrong type: must be an integer, got \"10\""},
             {"{\"task\": \"toy\", \"lr\": 1e300}",
              "training config field 'lr' must be in [-1e+30, 1e+30], got 1e+300"},
             {"{\"task\": \"toy\", \"seed\": -1}",
              "training config field 'seed' has the wrong type: must be a non-negative integer"},
             {"{\"task\": 7}", "training config field 'task' has the wrong type: must be a string"},
             {"{\"task\": \"toy\", \"model\": 5}", "training config field 'model' must be a JSON object"}});
    for (const char* bad : {"{\"dim\": 31.5}", "{", "[]", "{\"kind\": []}"}) {
      try {
        ModelConfig::from_json(bad);
        FAIL("accepted " << bad);
      } catch (const Error& e) {
        CHECK(std::string(e.what()).find("json.exception") == std::string::npos);
      }
    }
  }

  TEST_CASE("a write request from JSON is typed too") {
    WriteRequest r = WriteRequest::from_json(
        "{\"prompt\":\"the\",\"suffix\":\"end\",\"sampler\":\"greedy\",\"length\":9,\"count\":2,\"steps\":3,"
        "\"topK\":4,\"temperature\":0.5,\"seed\":11}");
    CHECK(r.prompt == "the");
    CHECK(r.suffix == "end");
    CHECK(r.sampler == "greedy");
    CHECK(r.length == 9);
    CHECK(r.count == 2);
    CHECK(r.steps == 3);
    CHECK(r.top_k == 4);
    CHECK(r.temperature == 0.5f);
    CHECK(r.seed == 11);
    CHECK_THROWS_WITH_AS(
        WriteRequest::from_json("{\"topK\": 2.5}"),
        doctest::Contains("write request field 'topK' has the wrong type: must be an integer"), Error);
    CHECK_THROWS_WITH_AS(WriteRequest::from_json("{\"top_k\": 2}"),
                         doctest::Contains("unknown write request field 'top_k'"), Error);
  }

  TEST_CASE("a vocabulary whose length disagrees with the config is refused at load") {
    std::vector<uint8_t> bytes = edited(trained_bytes(small_toy(), 1), [](auto&, auto& meta) {
      meta["tinyformer.vocab"] = "[\"a\",\"b\",\"c\"]";
    });
    CHECK_THROWS_WITH_AS(load_checkpoint_bytes(bytes),
                         doctest::Contains("vocabulary has 3 entries but the model config says vocab 14"),
                         Error);
  }

  TEST_CASE("a run's file names its task and training config; describing it builds nothing") {
    SavedRun run = saved(trained_bytes(small_toy(), 2));
    CHECK(run.task == TaskKind::Toy);
    CHECK(run.resumable());
    CHECK(run.step() == 2);
    REQUIRE(run.train);
    CHECK(run.train->batch == 8);
    nlohmann::json d = describe_saved_run(run);
    CHECK(d["task"] == "toy");
    CHECK(d["resumable"] == true);
    CHECK(d["train"]["batch"] == 8);
    CHECK(d["parameters"] == run.model.parameter_count());
    CHECK(d["table"]["total"] == run.model.parameter_count());
    CHECK(d["table"]["rows"][0]["name"] == "embed.weight");
    CHECK(d["vocab"].size() == 14);
    CHECK(d["metadata"].empty());
  }

  TEST_CASE("weights-only files know their task, refuse to resume and still build their model") {
    TrainConfig c = small_sort();
    Trainer t(c, make_task(c));
    std::vector<uint8_t> bytes =
        save_checkpoint_bytes(weights_checkpoint(t.model(), t.task().vocabulary(), TaskKind::Sort));
    SavedRun run = saved(bytes);
    CHECK(run.task == TaskKind::Sort);
    CHECK_FALSE(run.resumable());
    CHECK(describe_saved_run(run)["train"].is_null());
    CHECK_THROWS_WITH_AS(Session::resume(run, nullptr), doctest::Contains("holds weights only"), Error);
    CHECK(build_model(run)->module().parameter_count() == run.model.parameter_count());
    // A file from before the task key: the toy language's vocabulary says toy.
    TrainConfig toy = small_toy();
    Trainer toy_run(toy, make_task(toy));
    Checkpoint old = weights_checkpoint(toy_run.model(), toy_run.task().vocabulary(), TaskKind::Toy);
    old.task.clear();
    CHECK(saved(save_checkpoint_bytes(old)).task == TaskKind::Toy);
  }

  TEST_CASE("resuming as another task is refused") {
    SavedRun run = saved(trained_bytes(small_sort(), 1));
    CHECK_THROWS_WITH_AS(
        Session::resume(run, nullptr, Device::CPU, TaskKind::Stories),
        doctest::Contains("this checkpoint is a sort run; it cannot be resumed as a stories run"), Error);
    CHECK(Session::resume(run, nullptr, Device::CPU, TaskKind::Sort)->steps_done() == 1);
  }

  TEST_CASE(
      "optimizer state sits under one optim. prefix, and files with float32 counts or the old doubled "
      "prefix resume") {
    TrainConfig c = small_toy();
    Trainer whole(c, make_task(c));
    std::vector<float> expected;
    for (int i = 0; i < 4; ++i) expected.push_back(whole.train_step().loss);
    std::vector<uint8_t> bytes = trained_bytes(c, 2);
    SafetensorsFile file = read_safetensors(bytes);
    REQUIRE(file.find_integers("optim.steps") != nullptr);
    CHECK(file.find_integers("optim.steps")->data == std::vector<int64_t>{2});
    CHECK(file.find("optim.exp_avg.embed.weight") != nullptr);
    for (const auto& t : file.tensors) CHECK(t.name.rfind("optim.optim.", 0) != 0);
    for (const auto& e : file.integers) CHECK(e.name.rfind("optim.optim.", 0) != 0);
    std::vector<uint8_t> float_counts = older_file(bytes, false), old = older_file(bytes, true);
    CHECK(read_safetensors(old).integers.empty());
    REQUIRE(read_safetensors(old).find("optim.optim.steps") != nullptr);
    CHECK(read_safetensors(old).find("optim.optim.steps")->data == std::vector<float>{2.f});
    for (const auto& b : {bytes, float_counts, old}) {
      std::unique_ptr<Session> resumed = Session::resume(saved(b), nullptr);
      CHECK(resumed->advance(1)[0].loss == expected[2]);
      CHECK(resumed->advance(1)[0].loss == expected[3]);
    }
  }

  TEST_CASE("when the counts disagree, the first tensor missing, extra or of another shape is named") {
    std::vector<uint8_t> bytes = trained_bytes(small_toy(), 1);
    const std::string counts = "describes a transformer of " +
                               std::to_string(saved(bytes).model.parameter_count()) +
                               " parameters, but its tensors hold ";
    auto refused = [&](const std::function<void(std::vector<std::pair<std::string, Tensor>>&)>& edit) {
      try {
        saved(edited(bytes, [&](auto& tensors, auto&) { edit(tensors); }));
      } catch (const Error& e) {
        return std::string(e.what());
      }
      return std::string("accepted");
    };
    auto find = [](auto& tensors, const std::string& name) {
      return std::find_if(tensors.begin(), tensors.end(), [&](const auto& t) { return t.first == name; });
    };
    std::string missing = refused([&](auto& t) { t.erase(find(t, "out.bias")); });
    CHECK(missing.find(counts) != std::string::npos);
    CHECK(missing.find(": the checkpoint lacks the model's parameter(s) 'out.bias'") != std::string::npos);
    std::string extra = refused([&](auto& t) { t.emplace_back("blocks.9.extra", Tensor::ones(Shape{3})); });
    CHECK_MESSAGE(extra.find(counts) != std::string::npos, extra);
    CHECK(extra.find(": the checkpoint has parameter(s) the model does not: 'blocks.9.extra'") !=
          std::string::npos);
    std::string short_bias = refused([&](auto& t) { find(t, "out.bias")->second = Tensor::ones(Shape{13}); });
    CHECK(short_bias.find(counts) != std::string::npos);
    CHECK(short_bias.find(": parameter 'out.bias' has shape (13) in the checkpoint but (14) in the model") !=
          std::string::npos);
    // With the same count, the names still have to be the model's: refused before any model is built.
    std::string renamed = refused([&](auto& t) { find(t, "out.bias")->first = "out.shift"; });
    CHECK(renamed == "the checkpoint lacks the model's parameter(s) 'out.bias'");
  }

  TEST_CASE("errors from a file name the file") {
    test::ScratchDir dir("saved_run_names");
    std::string path = (dir.path / "bad.safetensors").string();
    write_file_atomically(path, edited(trained_bytes(small_toy(), 1), [](auto&, auto& meta) {
                            meta["tinyformer.train"] = "{\"task\":\"toy\",\"batch\":1.5}";
                          }));
    CHECK_THROWS_WITH_AS(
        load_saved_run(path),
        doctest::Contains(
            ("'" + path + "': training config field 'batch' has the wrong type: must be an integer").c_str()),
        Error);
  }
}
