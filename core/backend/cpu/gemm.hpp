// CPU GEMM for one instruction set.
#pragma once
#include <cstdint>

#include "backend/backend.hpp"
#include "backend/cpu/simd.hpp"
#include "backend/cpu/thread_pool.hpp"

namespace tf::cpu {

// Plain row-parallel product; each output element is computed the same way whatever the thread count.
template <class A>
void gemm(const GemmArgs& g, const float* Ap, const float* Bp, float* Cp, ThreadPool& pool) {
  for (int b = 0; b < g.batch; ++b) {
    const float* a = Ap + b * g.stride_a;
    const float* bb = Bp + b * g.stride_b;
    float* c = Cp + b * g.stride_c;
    pool.parallel_for(g.M, 4, [&](int64_t i0, int64_t i1) {
      for (int64_t i = i0; i < i1; ++i) {
        float* ci = c + i * g.ldc;
        for (int j = 0; j < g.N; ++j) ci[j] = g.beta == 0.f ? 0.f : g.beta * ci[j];
        for (int kk = 0; kk < g.K; ++kk) {
          float av = g.alpha * (g.trans_a ? a[kk * g.lda + i] : a[i * g.lda + kk]);
          for (int j = 0; j < g.N; ++j) ci[j] += av * (g.trans_b ? bb[j * g.ldb + kk] : bb[kk * g.ldb + j]);
        }
      }
    });
  }
}

}  // namespace tf::cpu
