#include <doctest/doctest.h>

#include <algorithm>

#include "nn/model.hpp"
#include "sample/write_text.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {
const std::vector<std::string> kWords = {"one", "day",  "lily", "went",  "to",
                                         "the", "park", ".",    "<unk>", "_"};

Model story_model(bool causal, int64_t max_length = 64) {
  Rng rng(0);
  ModelConfig c = ModelConfig::transformer(static_cast<int64_t>(kWords.size()), 16, 2, 1);
  c.causal = causal;
  c.max_length = max_length;
  return Model(c, rng);
}
}  // namespace

TEST_SUITE("write_text") {
  TEST_CASE("undiffusing keeps the prompt and suffix, writes no mask or <unk>, records the reveal steps") {
    Model model = story_model(false);
    WriteRequest r;
    r.prompt = "one day";
    r.suffix = "park .";
    r.length = 8;
    r.count = 3;
    r.steps = 4;
    nlohmann::json out = write_text(model, WordCodec(kWords), r);
    CHECK(out["sampler"] == "undiffuse");
    for (const auto& s : out["stories"]) {
      std::vector<std::string> t = s["tokens"];
      REQUIRE(t.size() == 8);
      CHECK(t[0] == "one");
      CHECK(t[7] == ".");
      std::vector<int> reveal = s["reveal_step"];
      CHECK(reveal[0] == 0);
      for (int i = 2; i < 6; ++i) {
        CHECK(t[static_cast<size_t>(i)] != "_");
        CHECK(t[static_cast<size_t>(i)] != "<unk>");
        CHECK((reveal[static_cast<size_t>(i)] >= 1 && reveal[static_cast<size_t>(i)] <= 4));
      }
    }
  }

  TEST_CASE("a causal model writes left to right and cannot fill in before a suffix") {
    Model model = story_model(true);
    WriteRequest r;
    r.prompt = "one day";
    r.length = 6;
    r.count = 2;
    nlohmann::json out = write_text(model, WordCodec(kWords), r);
    CHECK(out["sampler"] == "left-to-right");
    CHECK(out["stories"][0]["tokens"].size() == 6);
    CHECK(out["stories"][0]["network_calls"] == 4);
    r.suffix = "park .";
    CHECK_THROWS_AS(write_text(model, WordCodec(kWords), r), Error);
  }

  TEST_CASE("bad requests are refused") {
    Model model = story_model(false);
    WriteRequest r;
    r.sampler = "beam";
    CHECK_THROWS_AS(write_text(model, WordCodec(kWords), r), Error);
    r.sampler = "";
    r.length = 1000;
    CHECK_THROWS_AS(write_text(model, WordCodec(kWords), r), Error);
  }

  TEST_CASE(
      "length has a cap whatever the model's max_length; long stories are undiffused a batch at a time") {
    Model model = story_model(false, 4096);
    WriteRequest r;
    r.prompt = "one day";
    r.length = 4096;
    CHECK_THROWS_WITH_AS(
        write_text(model, WordCodec(kWords), r),
        doctest::Contains("length must be 1..2048 (the model's max_length 4096, and writing's "
                          "limit of 2048), got 4096"),
        Error);
    r.length = kMaxWriteLength;
    r.count = 3;  // each 2048-token story alone fills a batch's kWriteBatchFloats
    r.steps = 1;
    nlohmann::json out = write_text(model, WordCodec(kWords), r);
    REQUIRE(out["stories"].size() == 3);
    for (const auto& story : out["stories"]) {
      std::vector<std::string> t = story["tokens"];
      CHECK(t.size() == 2048);
      CHECK((t[0] == "one" && t[1] == "day"));
      CHECK(std::count(t.begin(), t.end(), "_") == 0);
    }
  }

  TEST_CASE("the request is checked before anything is written, the prompt against the length") {
    Model model = story_model(true);
    WriteRequest r;
    r.prompt = "one day lily went to the park .";
    r.length = 8;
    CHECK_THROWS_WITH_AS(check_write_request(model, WordCodec(kWords), r),
                         doctest::Contains("the prompt has 8 tokens: nothing left to write within length 8"),
                         Error);
    r.length = 9;
    CHECK(check_write_request(model, WordCodec(kWords), r).sampler == "left-to-right");
    r.suffix = "park .";
    CHECK_THROWS_WITH_AS(check_write_request(model, WordCodec(kWords), r),
                         doctest::Contains("cannot fill in before a suffix"), Error);
  }
}
