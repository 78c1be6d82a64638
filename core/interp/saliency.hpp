// Gradient saliency (course D6, and the story models beside their attention): for each written position
// k, the norm of the gradient of the logit of the word written there with respect to each input
// embedding, normalised so every row sums to one. Rows are written positions, columns input positions.
#pragma once
#include "interp/figure.hpp"
#include "nn/my_transformer.hpp"
#include "nn/sorter.hpp"

namespace tf {

struct SaliencyResult {
  Tensor saliency;  // [steps, S]
  Ids output;       // [1, steps], the words the saliency explains
};

// The sorter: rows are the output steps of its greedy answer (after the sqrt(d) scaling of the source).
SaliencyResult sorter_saliency(const Sorter& net, const Ids& src);

// A token model on x [1, T]: row k explains the logit of its most likely word at position k (the word it
// would write there; for a causal model, the next word), columns are the T input embeddings.
SaliencyResult token_saliency(const MyTransformer& net, const Ids& x);

// The same as the page's figures: the array "saliency" [steps, S] and the explained words as the value
// "output" (the sorter's answer) or "written" (the word a token model would write at each position).
Figure sorter_saliency_figure(const Sorter& net, const Ids& src);
Figure token_saliency_figure(const MyTransformer& net, const Ids& x);

}  // namespace tf
