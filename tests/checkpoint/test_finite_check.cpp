// The checkpoint writer refuses NaN and infinity (a diverged run's weights must never reach a file), naming
// the tensor with a typed reason (CheckpointRefused), and a refused save leaves the file on disk as it was.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "checkpoint/checkpoint.hpp"
#include "checkpoint/finite_check.hpp"
#include "io/file_bytes.hpp"
#include "nn/model_config.hpp"
#include "support/scratch_dir.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {

Checkpoint small_checkpoint() {
  Checkpoint ck;
  ck.config_json = ModelConfig::transformer(6, 4, 1, 1).to_json();
  ck.params = {{"embed.weight", Tensor::full(Shape{6, 4}, 0.25f)}, {"out.bias", Tensor::zeros(Shape{6})}};
  ck.optimizer_state.slots = {{"m.embed.weight", Tensor::full(Shape{6, 4}, 0.5f)}};
  return ck;
}

Tensor with_one(float value) {
  std::vector<float> v(6, 0.f);
  v[4] = value;
  return Tensor::from_vector(v, Shape{6});
}

}  // namespace

TEST_SUITE("finite_check") {
  TEST_CASE("saving refuses a parameter holding NaN or infinity and names it") {
    for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                      -std::numeric_limits<float>::infinity()}) {
      CAPTURE(bad);
      Checkpoint ck = small_checkpoint();
      ck.params[1].second = with_one(bad);
      CHECK_THROWS_WITH_AS(
          save_checkpoint_bytes(ck),
          doctest::Contains("refusing to save this checkpoint: parameter 'out.bias' holds NaN "
                            "or infinity"),
          CheckpointRefused);
    }
    try {  // the reason is typed, for the front ends to tell it their own way
      Checkpoint ck = small_checkpoint();
      ck.params[0].second = Tensor::full(Shape{6, 4}, std::numeric_limits<float>::quiet_NaN());
      check_checkpoint_finite(ck, "eval");
      FAIL("a NaN was not refused");
    } catch (const CheckpointRefused& e) {
      CHECK(e.reason == Refusal::NotFinite);
      CHECK(std::string(refusal_name(e.reason)) == "not-finite");
    }
  }

  TEST_CASE("saving refuses non-finite optimizer state too, and finite values still save") {
    Checkpoint ck = small_checkpoint();
    CHECK(load_checkpoint_bytes(save_checkpoint_bytes(ck)).params.size() == 2);
    ck.optimizer_state.slots.emplace_back("v.out.bias", with_one(std::numeric_limits<float>::infinity()));
    CHECK_THROWS_WITH_AS(save_checkpoint_bytes(ck), doctest::Contains("optimizer state 'v.out.bias'"), Error);
    CHECK_NOTHROW(check_checkpoint_finite(small_checkpoint(), "eval"));
    CHECK_THROWS_WITH_AS(check_checkpoint_finite(ck, "cannot evaluate x.safetensors"),
                         doctest::Contains("cannot evaluate x.safetensors: optimizer state"), Error);
  }

  TEST_CASE("a refused save leaves the previous file untouched") {
    test::ScratchDir dir("finite_check");
    std::string path = (dir.path / "run.safetensors").string();
    save_checkpoint(path, small_checkpoint());
    std::vector<uint8_t> before = read_file_bytes(path);
    Checkpoint bad = small_checkpoint();
    bad.params[0].second = Tensor::full(Shape{6, 4}, std::numeric_limits<float>::quiet_NaN());
    CHECK_THROWS_AS(save_checkpoint(path, bad), Error);
    CHECK(read_file_bytes(path) == before);
  }
}
