// Whole-model parity (issue 6): the same run on the CPU and on CUDA gives the same losses — 20 training
// steps of the story transformer (diffusion and causal) and of the sorter within 1e-4 relative. Skipped with
// a message where the build has no CUDA backend or the machine no GPU.
#include <doctest/doctest.h>

#include <cmath>

#include "story_gen/grammar.hpp"
#include "support/backends.hpp"
#include "train/trainer.hpp"

using namespace tf;

namespace {

std::vector<float> losses(const TrainConfig& c, std::shared_ptr<const StoryData> data, Device device,
                          int steps) {
  Trainer t(c, make_task(c, data), device);
  std::vector<float> out;
  for (int i = 0; i < steps; ++i) out.push_back(t.train_step().loss);
  return out;
}

void compare_devices(const TrainConfig& c, std::shared_ptr<const StoryData> data) {
  std::vector<float> cpu = losses(c, data, Device::CPU, 20), gpu = losses(c, data, Device::CUDA, 20);
  for (size_t i = 0; i < cpu.size(); ++i) {
    INFO("step " << i + 1 << ": cpu " << cpu[i] << ", cuda " << gpu[i]);
    CHECK(std::abs(cpu[i] - gpu[i]) <= 1e-4f * std::abs(cpu[i]));
  }
}

}  // namespace

TEST_SUITE("cuda_model_parity") {
  TEST_CASE("20 training steps give the same losses on the CPU and on CUDA") {
    if (!cuda_available()) {
      MESSAGE(test::cuda_skip_reason());
      return;
    }
    auto data = std::make_shared<const StoryData>(StoryData::from_text(generate_stories(1, 400000)));
    for (bool causal : {false, true}) {
      TrainConfig c = TrainConfig::for_task("stories");
      c.model.vocab = data->vocab.size();
      c.model.causal = causal;
      compare_devices(c, data);
    }
    compare_devices(TrainConfig::for_task("sort"), nullptr);
  }
}
