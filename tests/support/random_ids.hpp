// Token ids drawn uniformly from a vocabulary with the project's generator: the input the model and loss
// tests feed when the words do not matter.
#pragma once
#include <cstdint>
#include <vector>

#include "tensor/tensor.hpp"
#include "util/rng.hpp"

namespace tf::testing {

// [B, T] ids in 0..vocab-1, the same for the same seed.
inline Ids random_ids(int64_t B, int64_t T, int64_t vocab, uint64_t seed) {
  Rng rng(seed);
  std::vector<int32_t> v(static_cast<size_t>(B * T));
  for (auto& x : v) x = static_cast<int32_t>(rng.below(vocab));
  return Ids(v, Shape{B, T});
}

}  // namespace tf::testing
