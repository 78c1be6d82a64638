#include "data/sort_digits.hpp"

#include <algorithm>
#include <vector>

#include "util/error.hpp"

namespace tf::sort_digits {

Batch make_batch(Rng& rng, int64_t B) {
  TF_CHECK(B > 0, "sort task: the batch size must be positive, got ", B);
  const auto n = static_cast<size_t>(B * kLength);
  std::vector<int32_t> src(n), tgt_in(n), tgt(n);  // each (B, 10)
  for (auto& d : src) d = static_cast<int32_t>(rng.below(kDigits));
  for (int64_t b = 0; b < B; ++b) {
    const auto row = src.begin() + b * kLength;
    std::copy(row, row + kLength, tgt.begin() + b * kLength);
    std::sort(tgt.begin() + b * kLength, tgt.begin() + (b + 1) * kLength);
    tgt_in[b * kLength] = kSos;
    std::copy_n(tgt.begin() + b * kLength, kLength - 1, tgt_in.begin() + b * kLength + 1);
  }
  return {Ids(std::move(src), Shape{B, kLength}), Ids(std::move(tgt_in), Shape{B, kLength}),
          Ids(std::move(tgt), Shape{B, kLength})};
}

}  // namespace tf::sort_digits
