#include "train/vocabulary_agreement.hpp"

#include <algorithm>

#include "util/error.hpp"

namespace tf {

void require_same_vocabulary(const std::vector<std::string>& weights, const std::vector<std::string>& run) {
  if (weights.empty() || run.empty() || weights == run) return;
  size_t n = std::min(weights.size(), run.size()), same = 0, first = n;
  for (size_t i = 0; i < n; ++i) {
    if (weights[i] == run[i])
      ++same;
    else if (first == n)
      first = i;
  }
  std::string where = first < n ? " (token id " + std::to_string(first) + " is \"" + weights[first] +
                                      "\" in the weights, \"" + run[first] + "\" here)"
                                : "";
  fail("the weights come from a model with another vocabulary: ", same, " of ", run.size(),
       " token ids name the same word", where, ", the weights have ", weights.size(),
       " words; train both models on the same story text (the same vocabulary) to share weights");
}

}  // namespace tf
