#include <doctest/doctest.h>

#include "io/checkpoint.hpp"
#include "train/trainer.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {

// Runs c.steps steps uninterrupted, then again stopping after `stop_at`, saving a checkpoint to bytes and
// resuming from it: every loss must equal the uninterrupted run's, bit for bit.
void check_resume_is_exact(const TrainConfig& c, int stop_at) {
  Trainer whole(c, make_task(c));
  std::vector<float> expected;
  for (int i = 0; i < c.steps; ++i) expected.push_back(whole.step().loss);

  Trainer first(c, make_task(c));
  for (int i = 0; i < stop_at; ++i) CHECK(first.step().loss == expected[static_cast<size_t>(i)]);
  std::vector<uint8_t> bytes = save_checkpoint_bytes(first.checkpoint());
  std::unique_ptr<Trainer> resumed = Trainer::resume(load_checkpoint_bytes(bytes), make_task(c));
  CHECK(resumed->steps_done() == stop_at);
  for (int i = stop_at; i < c.steps; ++i) CHECK(resumed->step().loss == expected[static_cast<size_t>(i)]);
}

}  // namespace

TEST_SUITE("trainer") {
  TEST_CASE("resuming from a checkpoint gives exactly the losses of an uninterrupted run") {
    TrainConfig c = TrainConfig::for_task("toy", ModelKind::Transformer);
    c.steps = 12;
    c.seed = 3;
    check_resume_is_exact(c, 6);
  }

  TEST_CASE("the sorter's one-cycle run resumes exactly too") {
    TrainConfig c = TrainConfig::for_task("sort");
    c.steps = 8;
    c.batch = 16;
    check_resume_is_exact(c, 3);
  }

  TEST_CASE("bad settings are clear errors") {
    TrainConfig c = TrainConfig::for_task("toy");
    c.batch = 0;
    CHECK_THROWS_WITH_AS(Trainer(c, make_task(c)), doctest::Contains("batch"), Error);
    c = TrainConfig::for_task("toy");
    c.model.kind = ModelKind::Sorter;
    CHECK_THROWS_AS(Trainer(c, make_task(c)), Error);
    CHECK_THROWS_WITH_AS(TrainConfig::for_task("poetry"), doctest::Contains("unknown task"), Error);
    CHECK_THROWS_WITH_AS(TrainConfig::from_json("{\"task\": \"toy\", \"stepz\": 3}"),
                         doctest::Contains("stepz"), Error);
  }

  TEST_CASE("a training config survives its JSON form") {
    TrainConfig c = TrainConfig::for_task("sort");
    c.seed = 42;
    TrainConfig d = TrainConfig::from_json(c.to_json());
    CHECK(d.to_json() == c.to_json());
  }
}
