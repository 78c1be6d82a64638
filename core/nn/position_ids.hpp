// The ids that look up a learned position table (WithPosition, MyTransformer): positions start .. start+T-1.
// A KV cache writes from a later start, so the offset is a parameter rather than always 0.
#pragma once
#include <cstdint>

#include "tensor/tensor.hpp"

namespace tf {

// Ids start, start+1, ..., start+T-1 as a [T] row.
Ids position_ids(int64_t T, int64_t start = 0);

}  // namespace tf
