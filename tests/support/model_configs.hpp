// Model configs several model tests build from: a causal (left-to-right) MyTransformer, the one the causal
// checks of nn/, interp/ and sample/ share.
#pragma once
#include <cstdint>

#include "nn/model_config.hpp"

namespace tf::testing {

inline ModelConfig causal_transformer(int64_t vocab, int64_t dim, int64_t heads, int64_t layers) {
  ModelConfig c = ModelConfig::transformer(vocab, dim, heads, layers);
  c.causal = true;
  return c;
}

}  // namespace tf::testing
