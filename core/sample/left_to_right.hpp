// Writing left to right with a causal model (page 002's WriteLeftToRight): logits of the last position,
// forbidden tokens removed, softmax(logits / temperature) (optionally only the top k), sample, append.
// Keys and values of earlier positions are cached, so each new token costs one position's work.
#pragma once
#include <vector>

#include "nn/my_transformer.hpp"
#include "sample/guesser.hpp"
#include "util/rng.hpp"

namespace tf {

struct WriteOptions {
  int64_t length = 32;    // total tokens, prompt included
  GuessOptions guess;     // forbidden tokens and temperature
  int64_t top_k = 0;      // 0 = the whole vocabulary
  bool use_cache = true;  // false recomputes the whole prefix every step (the page's loop; for comparison)
};

struct WriteResult {
  std::vector<int32_t> tokens;
  int network_calls = 0;
};

WriteResult write_left_to_right(const MyTransformer& net, const std::vector<int32_t>& prompt,
                                const WriteOptions& options, Rng& rng);

}  // namespace tf
