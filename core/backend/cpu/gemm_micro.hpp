// The GEMM micro-kernel: an MR x NR tile of C from packed panels (A: [kc][MR], B: [kc][NR]) held in
// registers as MR x NV accumulators. Every C element is one FMA chain over k starting from zero, then
// combined with C once per K block, so its value never depends on where the tile sits or which thread ran it.
#pragma once
#include <cstdint>

#include "backend/cpu/gemm_tile.hpp"
#include "backend/cpu/simd.hpp"

namespace tf::cpu {

// Which K block a call belongs to: the first one applies beta to C's starting values `in` (C itself, or
// the bias row; beta == 0 reads neither), later ones add to C.
enum class GemmStore { First, FirstNoBeta, Accumulate };

template <class A>
void gemm_micro_store(batch<A> acc, float* c, const float* in, float alpha, float beta, GemmStore mode) {
  batch<A> scaled = acc * batch<A>(alpha);
  if (mode == GemmStore::FirstNoBeta)
    scaled.store_unaligned(c);
  else if (mode == GemmStore::First)
    (scaled + batch<A>::load_unaligned(in) * batch<A>(beta)).store_unaligned(c);
  else
    (batch<A>::load_unaligned(c) + scaled).store_unaligned(c);
}

// In wasm the micro-kernel stays a function of its own: inlined into the macro loop, V8's register
// allocator (15 usable xmm registers) spilled the 5 x 8 tile's accumulators (25 GFLOP/s under Node 20 on
// the model's shapes; 38 out of line, where the inlined 4 x 8 tile made 34). Native compilers need no hint.
#if defined(__EMSCRIPTEN__)
#define TF_GEMM_MICRO_LINKAGE __attribute__((noinline))
#else
#define TF_GEMM_MICRO_LINKAGE
#endif

// C[0:MR, 0:NR] (row stride ldc) from kc steps of the packed panels pa and pb; the first K block starts
// from in (row stride ld_in: ldc for C itself, 0 for a bias row).
template <class A>
TF_GEMM_MICRO_LINKAGE void gemm_micro(int64_t kc, const float* pa, const float* pb, float* c, int64_t ldc,
                                      const float* in, int64_t ld_in, float alpha, float beta,
                                      GemmStore mode) {
  using T = GemmTile<A>;
  using B = batch<A>;
  constexpr int MR = T::MR, NV = T::NV, W = static_cast<int>(B::size), NR = NV * W;
  B acc[MR][NV];
  for (int r = 0; r < MR; ++r)  // C's cache lines arrive for writing while the k loop runs
    for (int v = 0; v < NR; v += 16) __builtin_prefetch(c + r * ldc + v, 1);
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) acc[r][v] = B(0.f);
  for (int64_t k = 0; k < kc; ++k, pa += MR, pb += NR) {
    B b[NV];
    for (int v = 0; v < NV; ++v) b[v] = B::load_aligned(pb + v * W);
    for (int r = 0; r < MR; ++r) {
      B a(pa[r]);
      for (int v = 0; v < NV; ++v) acc[r][v] = fmadd<A>(a, b[v], acc[r][v]);
    }
  }
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v)
      gemm_micro_store<A>(acc[r][v], c + r * ldc + v * W, in + r * ld_in + v * W, alpha, beta, mode);
}

}  // namespace tf::cpu
