// A guesser turns partly masked sequences into a probability for every token at every position: the
// masked-diffusion page's MakeGuesser (a network, forbidden tokens, a temperature) or any exact rule.
#pragma once
#include <functional>
#include <vector>

#include "nn/token_model.hpp"

namespace tf {

// x [N, L] ids -> probabilities [N * L * V], row-major.
using Guesser = std::function<std::vector<float>(const Ids& x)>;

struct GuessOptions {
  std::vector<int32_t> forbidden;  // tokens that get probability 0 (e.g. MASK and <unk>)
  float temperature = 1.f;         // p ~ exp(logit / temperature)
};

Guesser make_guesser(const TokenModel& net, const GuessOptions& options = {});

// softmax(logits / temperature) over rows of width V with the forbidden columns removed, in place.
void logits_to_probabilities(std::vector<float>& logits, int64_t V, const GuessOptions& options);

}  // namespace tf
