// CPU embedding gather and column-range scatter-add.
#pragma once
#include <cstdint>
#include <cstring>

#include "backend/cpu/simd.hpp"

namespace tf::cpu {

template <class A>
void embedding_forward(const float* table, const int32_t* ids, float* out, int64_t n, int64_t C) {
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(out + i * C, table + static_cast<int64_t>(ids[i]) * C, static_cast<size_t>(C) * sizeof(float));
}

template <class A>
void embedding_backward(const float* dout, const int32_t* ids, float* dtable, int64_t n, int64_t C, int64_t c0,
                        int64_t c1) {
  for (int64_t i = 0; i < n; ++i) {
    float* row = dtable + static_cast<int64_t>(ids[i]) * C;
    for (int64_t c = c0; c < c1; ++c) row[c] += dout[i * C + c];
  }
}

}  // namespace tf::cpu
