#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "data/toy_language.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {
// p(word | position i) from guess_x0 for a sentence given in words.
double guess(const std::string& sentence, int64_t i, const std::string& word) {
  const std::vector<float> p = toy::guess_x0(toy::encode(sentence));
  return p[static_cast<size_t>(i * toy::kVocabSize + toy::encode(word)[0])];
}

// The expected DiffusionLoss of the exact guesser: every mask pattern M of a sentence has probability
// t^|M| (1-t)^(4-|M|) at time t, weighted 1/t; integrating over t in (0, 1] gives the Beta function
// B(|M|, 5-|M|) = (|M|-1)! (4-|M|)! / 4!.
double exact_guesser_loss() {
  const double fact[] = {1, 1, 2, 6, 24};
  double loss = 0;
  for (const toy::Sentence& s : toy::sentences()) {
    for (int mask = 1; mask < 16; ++mask) {
      std::vector<int32_t> x = s.ids;
      int k = 0;
      for (int i = 0; i < 4; ++i)
        if (mask >> i & 1) x[static_cast<size_t>(i)] = toy::kMask, ++k;
      const std::vector<float> p = toy::guess_x0(x);
      double nll = 0;
      for (int i = 0; i < 4; ++i)
        if (mask >> i & 1)
          nll -= std::log(p[static_cast<size_t>(i * toy::kVocabSize + s.ids[static_cast<size_t>(i)])]);
      loss += s.prior * fact[k - 1] * fact[4 - k] / fact[4] * nll;
    }
  }
  return loss;
}
}  // namespace

TEST_SUITE("toy_language") {
  TEST_CASE("fourteen words with the mask last") {
    CHECK(toy::vocabulary().size() == 14);
    CHECK(toy::vocabulary()[toy::kMask] == "_");
    CHECK(toy::encode("the cat is alive") == std::vector<int32_t>{0, 1, 3, 4});
    CHECK(toy::decode(toy::encode("nobody knows if or until somebody looks _")) ==
          "nobody knows if or until somebody looks _");
    CHECK_THROWS_AS(toy::encode("the dog"), Error);
  }

  TEST_CASE("SamplePInit draws the cat sentence 80 % of the time") {
    Rng rng(7);
    const int n = 20000;
    int cats = 0, nonsense = 0;
    for (int k = 0; k < n; ++k) {
      const std::vector<int32_t> s = toy::sample_p_init(rng);
      nonsense += toy::is_nonsense(s);
      cats += toy::sentence_index(s) == 0;
    }
    CHECK(nonsense == 0);
    CHECK(std::abs(cats / double(n) - 0.8) < 0.015);  // about 5 sigma
    Ids batch = toy::sample_batch(rng, 64);
    CHECK(batch.shape == Shape({64, 4}));
  }

  TEST_CASE("GuessX0 of all masks is the prior at every position") {
    CHECK(guess("_ _ _ _", 0, "the") == doctest::Approx(1.0));
    CHECK(guess("_ _ _ _", 1, "cat") == doctest::Approx(0.8));
    CHECK(guess("_ _ _ _", 1, "box") == doctest::Approx(0.2));
    CHECK(guess("_ _ _ _", 3, "alive") == doctest::Approx(0.8));
    CHECK(guess("_ _ _ _", 3, "empty") == doctest::Approx(0.2));
  }

  TEST_CASE("GuessX0 follows the visible words") {
    CHECK(guess("the _ is empty", 1, "box") == doctest::Approx(1.0));
    CHECK(guess("_ _ is alive", 1, "cat") == doctest::Approx(1.0));
    CHECK(guess("the _ _ empty", 1, "box") == doctest::Approx(1.0));
    CHECK(guess("the _ _ empty", 2, "is") == doctest::Approx(1.0));
    CHECK(guess("the _ is empty", 3, "empty") == doctest::Approx(1.0));  // visible: one-hot
    CHECK(guess("the _ is empty", 3, "alive") == doctest::Approx(0.0));
  }

  TEST_CASE("with no consistent sentence GuessX0 falls back to the prior") {
    CHECK(guess("the _ is nobody", 1, "cat") == doctest::Approx(0.8));
    CHECK(guess("the _ is nobody", 1, "box") == doctest::Approx(0.2));
    CHECK(guess("the _ is nobody", 3, "nobody") == doctest::Approx(1.0));
    CHECK(guess("_ cat is empty", 0, "the") == doctest::Approx(1.0));
  }

  TEST_CASE("every row of GuessX0 is a distribution") {
    for (const char* s : {"_ _ _ _", "the box _ _", "_ cat _ empty", "the cat is alive"}) {
      const std::vector<float> p = toy::guess_x0(toy::encode(s));
      REQUIRE(p.size() == 4 * 14);
      for (int i = 0; i < 4; ++i) {
        double sum = 0;
        for (int v = 0; v < 14; ++v) sum += p[static_cast<size_t>(i * 14 + v)];
        CHECK(sum == doctest::Approx(1.0));
      }
    }
    CHECK_THROWS_AS(toy::guess_x0({0, 1, 3}), Error);
  }

  TEST_CASE("NoTalking's best guess is the word frequency over positions, costing 4 x 1.64 = 6.55") {
    const std::vector<double> f = toy::token_frequencies();
    CHECK(f[0] == doctest::Approx(0.25));  // the
    CHECK(f[3] == doctest::Approx(0.25));  // is
    CHECK(f[1] == doctest::Approx(0.20));  // cat
    CHECK(f[4] == doctest::Approx(0.20));  // alive
    CHECK(f[2] == doctest::Approx(0.05));  // box
    CHECK(f[5] == doctest::Approx(0.05));  // empty
    double entropy = 0;
    for (double q : f)
      if (q > 0) entropy -= q * std::log(q);
    CHECK(entropy == doctest::Approx(1.64).epsilon(0.003));
    CHECK(4 * entropy == doctest::Approx(6.55).epsilon(0.003));
  }

  TEST_CASE("the exact guesser reaches the best DiffusionLoss, the entropy 0.50 of the data") {
    const double entropy = -0.8 * std::log(0.8) - 0.2 * std::log(0.2);
    CHECK(exact_guesser_loss() == doctest::Approx(entropy).epsilon(1e-6));
    CHECK(entropy == doctest::Approx(0.50).epsilon(0.002));
  }

  TEST_CASE("sentences other than the two are nonsense") {
    CHECK(toy::sentence_index(toy::encode("the cat is alive")) == 0);
    CHECK(toy::sentence_index(toy::encode("the box is empty")) == 1);
    CHECK(toy::is_nonsense(toy::encode("the cat is empty")));
    CHECK(toy::is_nonsense(toy::encode("the box is alive")));
    CHECK(toy::is_nonsense(toy::encode("the _ is alive")));
  }
}
