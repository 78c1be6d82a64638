// Gradient saliency for the sorter (course D6): for each output step k, the norm of the gradient of the
// logit of the digit it wrote with respect to each input embedding (after the sqrt(d) scaling), normalised
// so every row sums to one. Rows are output steps, columns input positions.
#pragma once
#include "nn/sorter.hpp"

namespace tf {

struct SaliencyResult {
  Tensor saliency;  // [steps, S]
  Ids output;       // [1, steps], the greedy answer the saliency explains
};

SaliencyResult sorter_saliency(const Sorter& net, const Ids& src);

}  // namespace tf
