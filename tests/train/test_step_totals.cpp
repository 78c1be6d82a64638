// step_totals: what Session::advance(n) returns and what the bindings total a chunk's steps into (a Session
// test checks the two agree).
#include <doctest/doctest.h>

#include <cmath>

#include "train/step_totals.hpp"

using namespace tf;

namespace {

StepStats stats(int64_t step, float loss, bool skipped, int64_t skipped_steps) {
  StepStats s;
  s.step = step;
  s.loss = loss;
  s.lr = 0.001f * static_cast<float>(step);
  s.seconds = 0.25;
  s.tokens = 100;
  s.flops = 3000;
  s.skipped = skipped;
  s.skipped_steps = skipped_steps;
  return s;
}

}  // namespace

TEST_SUITE("step_totals") {
  TEST_CASE("sums time, tokens, work and skips; takes step, rate and run skips from the last step") {
    StepTotals t = step_totals({stats(7, 2.5f, false, 1), stats(8, NAN, true, 2), stats(9, 2.f, false, 2)});
    REQUIRE(t.losses.size() == 3);
    CHECK(t.losses[0] == 2.5f);
    CHECK(std::isnan(t.losses[1]));
    CHECK(t.losses[2] == 2.f);
    CHECK(t.step == 9);
    CHECK(t.lr == doctest::Approx(0.009f));
    CHECK(t.seconds == doctest::Approx(0.75));
    CHECK(t.tokens == 300);
    CHECK(t.flops == 9000);
    CHECK(t.skipped == 1);
    CHECK(t.skipped_steps == 2);
  }

  TEST_CASE("no steps total to zero") {
    StepTotals t = step_totals({});
    CHECK(t.losses.empty());
    CHECK(t.step == 0);
    CHECK(t.tokens == 0);
    CHECK(t.skipped == 0);
  }
}
