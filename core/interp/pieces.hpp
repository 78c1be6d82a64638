// The A-section experiments of the course (page 000 first half, page 002 steps 1-4) as figures: each
// builds small random pieces with the project's generator and measures the property the page shows.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "interp/figure.hpp"

namespace tf {

// A1: the sinusoidal table [n_pos, d] and its similarity PE PE^T [n_pos, n_pos] (depends on distance only).
Figure positional_figure(int64_t n_pos, int64_t d);

// A3, A4, A6, A7, A8: one sentence through attention step by step. X = random embeddings (a row per distinct
// word) + positions; W_Q, W_K, W_V random / sqrt(d_model). Arrays: x, scores, weights, output, hot and cold
// weights (queries x 0.1 and x 10), causal mask, causal and padding weights (last two tokens padding),
// heads (a MultiHead of `heads` heads over d_model). Values: row sums, the permutation-equivariance gap
// (without positions) and the gap to the fused attention kernel.
Figure attention_walkthrough(const std::vector<std::string>& tokens, int64_t d_model, int64_t d_k,
                             int64_t heads, uint64_t seed);

// A5: mean entropy of softmax(q.k) over `keys` keys for random q, k in each dimension d, raw and scaled by
// 1/sqrt(d), beside the uniform entropy log(keys). Arrays dims, raw, scaled.
Figure entropy_vs_dk(const std::vector<int64_t>& dims, int64_t queries, int64_t keys, uint64_t seed);

// A9: the GELU (tanh form) MLP acts on every position separately; FFN vs attention parameter counts.
Figure feed_forward_check(int64_t d_model, int64_t positions, uint64_t seed);

// A10: LayerNorm equals (x - mean) / std (biased), and the size of the residual update of each of `blocks`
// pre-norm causal blocks (weights shared, as on page 000).
Figure layer_norm_check(uint64_t seed);
Figure residual_stream(int64_t positions, int64_t d_model, int64_t heads, int64_t blocks, uint64_t seed);

}  // namespace tf
