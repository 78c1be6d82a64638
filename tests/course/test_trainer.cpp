#include <doctest/doctest.h>

#include "io/checkpoint.hpp"
#include "train/trainer.hpp"
#include "util/error.hpp"

using namespace tf;

TEST_SUITE("trainer") {
  TEST_CASE("resuming from a checkpoint gives exactly the losses of an uninterrupted run") {
    TrainConfig c = TrainConfig::for_task("toy", ModelKind::Transformer);
    c.steps = 12;
    c.seed = 3;
    Trainer whole(c, make_task(c));
    std::vector<float> expected;
    for (int i = 0; i < 12; ++i) expected.push_back(whole.step().loss);

    Trainer first(c, make_task(c));
    for (int i = 0; i < 6; ++i) CHECK(first.step().loss == expected[static_cast<size_t>(i)]);
    std::vector<uint8_t> bytes = save_checkpoint_bytes(first.checkpoint());
    std::unique_ptr<Trainer> resumed = Trainer::resume(load_checkpoint_bytes(bytes), make_task(c));
    CHECK(resumed->steps_done() == 6);
    for (int i = 6; i < 12; ++i) CHECK(resumed->step().loss == expected[static_cast<size_t>(i)]);
  }

  TEST_CASE("the sorter's one-cycle run resumes exactly too") {
    TrainConfig c = TrainConfig::for_task("sort");
    c.steps = 8;
    c.batch = 16;
    Trainer whole(c, make_task(c));
    std::vector<float> expected;
    for (int i = 0; i < 8; ++i) expected.push_back(whole.step().loss);
    Trainer first(c, make_task(c));
    for (int i = 0; i < 3; ++i) first.step();
    std::unique_ptr<Trainer> resumed =
        Trainer::resume(load_checkpoint_bytes(save_checkpoint_bytes(first.checkpoint())), make_task(c));
    for (int i = 3; i < 8; ++i) CHECK(resumed->step().loss == expected[static_cast<size_t>(i)]);
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
