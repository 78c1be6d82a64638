// Checkpoints with a training timeline: each snapshot's tensors under step_<N>/ beside the parameters,
// checked on save and refused on load before a number is decoded (docs/checkpoints.md).
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "checkpoint/checkpoint.hpp"
#include "checkpoint_fixtures.hpp"
#include "io/safetensors.hpp"
#include "support/scratch_dir.hpp"
#include "support/torch_reader.hpp"
#include "util/error.hpp"

using namespace tf;
using namespace tf::test;

TEST_SUITE("checkpoint") {
  TEST_CASE("a timeline's snapshots come back by step under step_<N>/ names beside the parameters") {
    TinyNet model(6, 4, 1);
    Checkpoint ck = checkpoint_of(model);
    for (int64_t step : {500, 50, 1234})
      for (const auto& [name, t] : TinyNet(6, 4, static_cast<uint64_t>(step)).named_parameters())
        ck.timeline[step].emplace_back(name, t.clone());
    std::vector<uint8_t> bytes = save_checkpoint_bytes(ck);
    SafetensorsFile file = read_safetensors(bytes);
    CHECK(file.find("step_50/embed.weight") != nullptr);
    CHECK(file.find("step_1234/out.bias") != nullptr);
    Checkpoint back = load_checkpoint_bytes(bytes);
    check_same_tensors(back.params, ck.params);
    REQUIRE(back.timeline.size() == 3);
    for (int64_t step : {50, 500, 1234}) check_same_tensors(back.timeline[step], ck.timeline[step]);
    TinyNet fresh(6, 4, 7);
    load_parameters(fresh, back);  // the file still loads as the model now
    CHECK(snapshot(fresh) == snapshot(model));
  }

  TEST_CASE(
      "a timeline past the run's step, of other names or shapes, or too long is refused on save and load") {
    Checkpoint ck = checkpoint_of(TinyNet(6, 4, 1));
    auto with = [&](int64_t step, std::function<void(NamedTensors&)> spoil) {
      Checkpoint bad = ck;
      spoil(bad.timeline[step] = ck.params);
      return bad;
    };
    struct Case {
      Checkpoint ck;
      const char* message;
    };
    std::vector<Case> cases = {
        {with(1235, [](NamedTensors&) {}), "snapshot at step 1235, past the run's step 1234"},
        {with(50, [](NamedTensors& s) { s.pop_back(); }), "snapshot at step 50: the checkpoint lacks"},
        {with(50,
              [](NamedTensors& s) {
                s[0].second = Tensor::ones(Shape{6, 5});
              }),
         "has shape (6, 5)"},
        {with(50, [](NamedTensors& s) { s.emplace_back("extra", Tensor::ones(Shape{1})); }), "'extra'"}};
    Checkpoint many = ck;
    for (int64_t step = 0; step <= static_cast<int64_t>(kMaxSnapshots); ++step)
      many.timeline[step] = ck.params;
    cases.push_back({many, "more than 64 steps"});
    for (const Case& c : cases) {
      CAPTURE(c.message);
      CHECK_THROWS_WITH_AS(save_checkpoint_bytes(c.ck), doctest::Contains(c.message), Error);
      // The same claims in a file written around the checkpoint's own checks: refused before decoding.
      Checkpoint plain = c.ck;
      plain.timeline.clear();
      auto tensors = read_safetensors(save_checkpoint_bytes(plain));
      std::vector<std::pair<std::string, Tensor>> all;
      for (const auto& t : tensors.tensors)
        all.emplace_back(t.name, Tensor::from_vector(t.data, Shape(t.shape)));
      for (const auto& [step, params] : c.ck.timeline)
        for (const auto& [name, t] : params) all.emplace_back("step_" + std::to_string(step) + "/" + name, t);
      CHECK_THROWS_WITH_AS(load_checkpoint_bytes(write_safetensors(all, tensors.metadata, tensors.integers)),
                           doctest::Contains(c.message), Error);
    }
    std::vector<std::pair<std::string, Tensor>> odd = {{"step_x/embed.weight", Tensor::ones(Shape{6, 4})}};
    std::map<std::string, std::string> meta = {{"tinyformer.format", "1"},
                                               {"tinyformer.config", ck.config_json}};
    CHECK_THROWS_WITH_AS(load_checkpoint_bytes(write_safetensors(odd, meta)), doctest::Contains("'x'"),
                         Error);
    odd[0].first = "step_5";
    CHECK_THROWS_WITH_AS(load_checkpoint_bytes(write_safetensors(odd, meta)),
                         doctest::Contains("names no parameter after its step"), Error);
  }
}

#ifndef __EMSCRIPTEN__
TEST_SUITE("checkpoint") {
  TEST_CASE("PyTorch reads a checkpoint with a timeline: each snapshot's tensors under step_<N>/") {
    Checkpoint ck = checkpoint_of(TinyNet(6, 4, 1));
    for (const auto& [name, t] : ck.params)
      ck.timeline[50].emplace_back(name, Tensor::full(t.shape(), 0.25f));
    std::optional<std::map<std::string, nlohmann::json>> tensors =
        torch_reads(ck, "checkpoint_torch_timeline");
    if (!tensors) return;
    std::map<std::string, nlohmann::json>& by_name = *tensors;
    REQUIRE(by_name.count("step_50/embed.weight") == 1);
    CHECK(by_name["step_50/embed.weight"]["torch_dtype"] == "torch.float32");
    CHECK(by_name["step_50/embed.weight"]["sum"].get<double>() == 6.0);  // 24 numbers of 0.25
    CHECK(by_name.size() == 2 * ck.params.size() + 2);
  }
}
#endif
