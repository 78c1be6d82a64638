// The toy-language numbers of page 002 (course B1-B3), trained for real: 1500 steps, batch 64, Adam 1e-3.
#include <doctest/doctest.h>

#include "train/trainer.hpp"

using namespace tf;

namespace {
// Mean of the last 200 step losses, as the "final loss".
float train_toy(ModelKind kind, int64_t dim, int64_t heads, int64_t layers, Trainer** keep = nullptr) {
  TrainConfig c = TrainConfig::for_task("toy", kind);
  c.model.dim = dim;
  c.model.heads = heads;
  c.model.layers = layers;
  c.seed = 1;
  static std::unique_ptr<Trainer> last;
  last = std::make_unique<Trainer>(c, make_task(c));
  double tail = 0;
  for (int64_t s = 0; s < c.steps; ++s) {
    float loss = last->train_step().loss;
    if (s >= c.steps - 200) tail += loss;
  }
  if (keep) *keep = last.get();
  return static_cast<float>(tail / 200);
}
}  // namespace

TEST_SUITE("toy_training") {
  TEST_CASE("NoTalking ends near 6.55 (4 x the entropy 1.64 of the word frequencies)") {
    float loss = train_toy(ModelKind::NoTalking, 32, 1, 1);
    MESSAGE("NoTalking final loss " << loss);
    CHECK(loss >= 6.40f);
    CHECK(loss <= 6.65f);
  }

  TEST_CASE("WithPosition ends near 1.0 and writes about a third nonsense") {
    Trainer* t = nullptr;
    float loss = train_toy(ModelKind::WithPosition, 32, 1, 1, &t);
    MESSAGE("WithPosition final loss " << loss);
    CHECK(loss >= 0.93f);
    CHECK(loss <= 1.10f);
    Rng rng(5);
    double nonsense =
        toy_undiffuse_census(t->model().token_model("test"), 1000, 20, rng)["nonsense_fraction"];
    MESSAGE("WithPosition nonsense fraction " << nonsense);
    CHECK(nonsense > 0.25);
    CHECK(nonsense < 0.40);
  }

  TEST_CASE("MyTransformer(14, 32, 1, 1) reaches 0.50, guesses like GuessX0, writes no nonsense") {
    Trainer* t = nullptr;
    float loss = train_toy(ModelKind::Transformer, 32, 1, 1, &t);
    MESSAGE("MyTransformer final loss " << loss);
    CHECK(loss <= 0.56f);
    const TokenModel& net = t->model().token_model("test");
    double gap = toy_position_two_guesses(net)["max_abs_difference"];
    MESSAGE("largest gap to GuessX0 at position 2: " << gap);
    CHECK(gap <= 0.05);
    Rng rng(6);
    double nonsense = toy_undiffuse_census(net, 1000, 20, rng)["nonsense_fraction"];
    MESSAGE("MyTransformer nonsense fraction " << nonsense);
    CHECK(nonsense < 0.03);
  }
}
