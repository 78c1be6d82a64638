// The sort task's data (page 000): ten digits in, the same digits sorted out. make_batch draws the digits
// uniformly, and the decoder input is the target shifted right behind SOS (teacher forcing).
#pragma once
#include <cstdint>

#include "tensor/tensor.hpp"
#include "util/rng.hpp"

namespace tf::sort_digits {

constexpr int32_t kDigits = 10;  // tokens 0..9
constexpr int32_t kSos = 10;     // start of the decoder input
constexpr int32_t kVocabSize = 11;
constexpr int64_t kLength = 10;

struct Batch {
  Ids src;     // (B, 10) random digits
  Ids tgt_in;  // (B, 10) SOS, then tgt[:, :-1]
  Ids tgt;     // (B, 10) src sorted ascending
};

Batch make_batch(Rng& rng, int64_t B);

}  // namespace tf::sort_digits
