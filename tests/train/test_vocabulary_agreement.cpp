#include <doctest/doctest.h>

#include "story_gen/grammar.hpp"
#include "train/trainer.hpp"
#include "train/vocabulary_agreement.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {

std::unique_ptr<Trainer> story_trainer(const std::shared_ptr<const StoryData>& data) {
  TrainConfig c = TrainConfig::for_task("stories");
  c.model = ModelConfig::transformer(data->vocab.size(), 16, 2, 1);
  c.batch = 2;
  return std::make_unique<Trainer>(c, make_task(c, data));
}

}  // namespace

TEST_SUITE("vocabulary_agreement") {
  TEST_CASE("equal or unknown vocabularies pass, different ones are refused with how far they differ") {
    CHECK_NOTHROW(require_same_vocabulary({"a", "b"}, {"a", "b"}));
    CHECK_NOTHROW(require_same_vocabulary({}, {"a", "b"}));
    CHECK_NOTHROW(require_same_vocabulary({"a", "b"}, {}));
    CHECK_THROWS_WITH_AS(require_same_vocabulary({"a", "c", "d"}, {"a", "b", "d"}),
                         doctest::Contains("2 of 3 token ids name the same word (token id 1 is \"c\""),
                         Error);
    CHECK_THROWS_WITH_AS(require_same_vocabulary({"a"}, {"a", "b"}),
                         doctest::Contains("the weights have 1 words"), Error);
  }

  TEST_CASE("a story run takes weights only from a model of the same vocabulary") {
    auto one = std::make_shared<const StoryData>(StoryData::from_text(generate_stories(1, 60000), "", 300));
    auto other = std::make_shared<const StoryData>(StoryData::from_text(generate_stories(2, 60000), "", 300));
    REQUIRE(one->vocab.size() == other->vocab.size());
    REQUIRE(one->vocab.words() != other->vocab.words());
    Checkpoint source = story_trainer(one)->checkpoint();
    CHECK_NOTHROW(story_trainer(one)->load_weights(source));
    CHECK_THROWS_WITH_AS(story_trainer(other)->load_weights(source), doctest::Contains("another vocabulary"),
                         Error);
  }
}
