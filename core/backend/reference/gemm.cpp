// Reference GEMM: the textbook triple loop with double accumulation, from C or the bias row.
#include "backend/reference/kernels.hpp"

namespace tf::ref {

void gemm(const GemmArgs& g, const float* A, const float* B, float* C) {
  for (int b = 0; b < g.batch; ++b) {
    const float* a = A + b * g.stride_a;
    const float* bb = B + b * g.stride_b;
    float* c = C + b * g.stride_c;
    for (int i = 0; i < g.M; ++i) {
      for (int j = 0; j < g.N; ++j) {
        double acc = 0;
        for (int k = 0; k < g.K; ++k) {
          float av = g.trans_a ? a[k * g.lda + i] : a[i * g.lda + k];
          float bv = g.trans_b ? bb[j * g.ldb + k] : bb[k * g.ldb + j];
          acc += static_cast<double>(av) * bv;
        }
        float& out = c[i * g.ldc + j];
        float in = g.beta == 0.f ? 0.f : g.bias ? g.bias[j] : out;
        out = static_cast<float>(g.alpha * acc + (g.beta == 0.f ? 0.0 : static_cast<double>(g.beta) * in));
      }
    }
  }
}

}  // namespace tf::ref
