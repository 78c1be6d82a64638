// The two-sentence toy language of the course (course map B): 14 words, "_" is MASK = 13, data "the cat
// is alive" (0.8) or "the box is empty" (0.2). GuessX0 is the exact denoiser, the yardstick for networks.
// When no sentence fits the visible words (e.g. "the cat is empty") the evidence is ignored and masked
// positions get the prior's per-position marginal; visible positions always get a one-hot.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tensor/tensor.hpp"
#include "util/rng.hpp"

namespace tf::toy {

constexpr int32_t kVocabSize = 14;
constexpr int32_t kMask = 13;
constexpr int64_t kLength = 4;

struct Sentence {
  std::vector<int32_t> ids;  // (kLength,)
  double prior;
};

const std::vector<std::string>& vocabulary();  // the 14 words in id order
const std::vector<Sentence>& sentences();      // the two sentences with their probabilities

std::vector<int32_t> encode(const std::string& sentence);  // words split on spaces; unknown word -> tf::Error
std::string decode(const std::vector<int32_t>& ids);

std::vector<int32_t> sample_p_init(Rng& rng);  // one sentence of the data distribution
Ids sample_batch(Rng& rng, int64_t B);         // (B, 4): B draws of sample_p_init

// The exact posterior, (L, 14) row-major: masked position i gets p(x0_i = v | visible tokens) from the
// sentences consistent with the visible tokens, weighted by their prior; visible positions a one-hot.
std::vector<float> guess_x0(const std::vector<int32_t>& x);

// How often each word appears over all positions of the data: the best guess of a network that sees
// neither position nor context (the/is 25 %, cat/alive 20 %, box/empty 5 %).
std::vector<double> token_frequencies();

// Which of the two data sentences x is (0 or 1), or -1 when it is none of them ("nonsense").
int sentence_index(const std::vector<int32_t>& x);
bool is_nonsense(const std::vector<int32_t>& x);

}  // namespace tf::toy
