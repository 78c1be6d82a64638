// CPU embedding: a row copy per id, and a scatter-add over a column range (the CPU backend gives each thread
// its own columns, so repeated ids never race and every id adds in order).
#pragma once
#include <cstdint>
#include <cstring>

#include "backend/cpu/parallel.hpp"
#include "backend/cpu/simd_tail.hpp"

namespace tf::cpu {

template <class A>
void embedding_forward_rows(const float* table, const int32_t* ids, float* out, int64_t n, int64_t C) {
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(out + i * C, table + static_cast<int64_t>(ids[i]) * C,
                static_cast<size_t>(C) * sizeof(float));
}

template <class A>
void embedding_backward_columns(const float* dout, const int32_t* ids, float* dtable, int64_t n, int64_t C,
                                int64_t c0, int64_t c1) {
  for (int64_t i = 0; i < n; ++i) {
    float* row = dtable + static_cast<int64_t>(ids[i]) * C + c0;
    update_binary<A>(dout + i * C + c0, row, static_cast<size_t>(c1 - c0),
                     [](const batch<A>& g, const batch<A>& t) { return t + g; });
  }
}

// ---- the kernels of kernels.hpp, spread over the thread pool ----

template <class A>
void embedding_forward(const float* table, const int32_t* ids, float* out, int64_t n, int64_t C) {
  for_rows(n, C, [&](int64_t r0, int64_t r1) {
    embedding_forward_rows<A>(table, ids + r0, out + r0 * C, r1 - r0, C);
  });
}

template <class A>
void embedding_backward(const float* dout, const int32_t* ids, const int32_t*, float* dtable, int64_t n,
                        int64_t C) {
  for_columns(
      n, C, [&](int64_t c0, int64_t c1) { embedding_backward_columns<A>(dout, ids, dtable, n, C, c0, c1); });
}

}  // namespace tf::cpu
