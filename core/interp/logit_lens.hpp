// The logit lens: what the residual stream would predict if it went straight from some block to the final
// LayerNorm and the output layer. Row 0 reads the embeddings (block 0's input), row i + 1 the output of block
// i; the last row is the same computation as the model's forward, so it is the model's own prediction, bit
// for bit.
#pragma once
#include <cstdint>
#include <vector>

#include "interp/figure.hpp"
#include "nn/my_transformer.hpp"

namespace tf {

// words [T]: the sentence; positions in `masked` are given to the model as `mask_id` (a diffusion model
// fills them in). Each position's target is the word the model should give there: for a causal model the
// next word (none at the last position), else the sentence's own word (none where it is the mask).
// Arrays "probs" [L + 1, T, top] (the likeliest words' probabilities, best first) and "target_prob"
// [L + 1, T] (0 without a target). Values "top_words" [L + 1][T][top], "target_rank" [L + 1][T] (0 = the
// likeliest word, -1 without a target), "input" and "targets" [T] (-1: none), "layers" (L).
Figure logit_lens(const MyTransformer& net, const std::vector<int32_t>& words,
                  const std::vector<int64_t>& masked, int32_t mask_id, int64_t top);

}  // namespace tf
