// Activation patching: which parts of a model carry what tells a clean input from a corrupted one of the
// same length. The corrupted input runs again with some of its activations copied from the clean run (a
// head's output at every position, or a block's input, the residual stream, at one position); how much of
// the clean answer's probability comes back says how much those carry. Every run is one sequence through
// the model's own forward (nn/block.hpp's taps), so patching nothing gives the corrupted run's numbers and
// patching all that the difference flows through gives the clean run's, bit for bit.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "interp/figure.hpp"
#include "nn/my_transformer.hpp"
#include "nn/sorter.hpp"

namespace tf {

// What one run copies from the clean run: heads (block, head), the sorter's cross-attention heads, at every
// position; residuals (block, position), a block's input at one position (block 0's: the embeddings).
struct PatchSet {
  std::vector<std::pair<int64_t, int64_t>> heads, residuals;
};

// A token model on clean and corrupted [1, T]: the probability of `target` at `position` (softmax of the
// model's forward) on the corrupted input with `patches` from the clean run.
float patched_probability(const MyTransformer& net, const Ids& clean, const Ids& corrupted, int64_t position,
                          int32_t target, const PatchSet& patches);
// Every single patch; position < 0 reads the last position, target < 0 the word the clean run finds
// likeliest there (values "position", "target": the ones read). Arrays "heads" [L, heads] and "residuals"
// [L, T]: the target's probability with that one head, or one block's input at one position, patched;
// "heads_restored", "residuals_restored": how much of the way from the corrupted probability to the clean
// one it came back (NaN where those differ by under 0.01). Values "clean", "corrupted": the target's
// probability on each input.
Figure token_patching(const MyTransformer& net, const Ids& clean, const Ids& corrupted, int64_t position,
                      int32_t target);

// The sorter on clean and corrupted digits [1, S]: both runs decode SOS and the clean input's greedy answer;
// per output step k, the probability of the answer's digit k [S] with `patches` (heads: cross-attention).
std::vector<float> sorter_patched_probabilities(const Sorter& net, const Ids& clean, const Ids& corrupted,
                                                const PatchSet& patches);
// Every cross-attention head: arrays "heads" and "heads_restored" [decoder layers, heads, S] (each output
// step's digit: which head carries which digit); values "answer", "clean", "corrupted" [S].
Figure sorter_patching(const Sorter& net, const Ids& clean, const Ids& corrupted);

}  // namespace tf
