#include "nn/position_ids.hpp"

#include <vector>

namespace tf {

Ids position_ids(int64_t T, int64_t start) {
  std::vector<int32_t> p(static_cast<size_t>(T));
  for (int64_t t = 0; t < T; ++t) p[static_cast<size_t>(t)] = static_cast<int32_t>(start + t);
  return Ids(p, Shape{T});
}

}  // namespace tf
