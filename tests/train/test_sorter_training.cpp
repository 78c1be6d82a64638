// Page 000's sorter trained as the page does (AdamW 1e-3, weight decay 0.01, one-cycle with 10 % warm-up,
// clipping at 1.0, batch 128, 1200 steps), then greedy decoding of 2000 fresh inputs (course D1, D2).
#include <doctest/doctest.h>

#include "train/trainer.hpp"

using namespace tf;

TEST_SUITE("sorter_training") {
#ifdef __EMSCRIPTEN__
  // A minute natively, several under Node: the wasm builds check the same kernels on the faster suites,
  // and the JS API suite trains in wasm end to end.
  TEST_CASE("the sorter sorts" * doctest::skip()) {}
#else
  TEST_CASE("the sorter sorts: at least 99.5 % of 2000 fresh sequences fully correct") {
    TrainConfig c = TrainConfig::for_task("sort");
    Trainer t(c, make_task(c));
    float first = t.train_step().loss, last = 0;
    while (t.steps_done() < c.steps) last = t.train_step().loss;
    MESSAGE("sorter loss " << first << " -> " << last);
    nlohmann::json ev = t.evaluate(123);
    double accuracy = ev["accuracy"], digits = ev["digit_accuracy"];
    MESSAGE("fully correct " << accuracy << ", per digit " << digits);
    CHECK(accuracy >= 0.995);
    CHECK(digits >= 0.999);
  }
#endif
}
