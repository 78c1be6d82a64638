// Packing for the CPU GEMM: a width x kc block of op(A) or op(B) is copied into panels of P columns laid
// out k-major (panel[k][c]), zero-padded to whole panels, so the micro-kernel reads both operands
// contiguously whatever the transposes were. The transposes use SSE intrinsics, common to every x86
// target and to emcc's wasm SIMD; they are always inlined, and the rest are templates on A, so the
// per-ISA objects share no code.
#pragma once
#include <xmmintrin.h>

#include <cstdint>
#include <cstring>

#include "backend/cpu/simd.hpp"

namespace tf::cpu {

// Panel columns contiguous in the source (sw == 1): each k copies one row piece.
template <class A, int P>
void pack_panel_rows(const float* src, int64_t sk, int64_t w, int64_t kc, float* dst) {
  if (w == P) {
    for (int64_t k = 0; k < kc; ++k) std::memcpy(dst + k * P, src + k * sk, P * sizeof(float));
    return;
  }
  for (int64_t k = 0; k < kc; ++k) {
    for (int64_t c = 0; c < w; ++c) dst[k * P + c] = src[k * sk + c];
    for (int64_t c = w; c < P; ++c) dst[k * P + c] = 0.f;
  }
}

// Four source columns (stride sw, k contiguous) by four k: one 4 x 4 transpose into dst[k*P + 0..3].
template <class A, int P>
void pack_transpose_4x4(const float* s, int64_t sw, float* d) {
  __m128 c0 = _mm_loadu_ps(s), c1 = _mm_loadu_ps(s + sw), c2 = _mm_loadu_ps(s + 2 * sw),
         c3 = _mm_loadu_ps(s + 3 * sw);
  __m128 lo01 = _mm_unpacklo_ps(c0, c1), lo23 = _mm_unpacklo_ps(c2, c3);  // k0 | k1 of (c0, c1), (c2, c3)
  __m128 hi01 = _mm_unpackhi_ps(c0, c1), hi23 = _mm_unpackhi_ps(c2, c3);  // k2 | k3
  _mm_storeu_ps(d, _mm_movelh_ps(lo01, lo23));
  _mm_storeu_ps(d + P, _mm_movehl_ps(lo23, lo01));
  _mm_storeu_ps(d + 2 * P, _mm_movelh_ps(hi01, hi23));
  _mm_storeu_ps(d + 3 * P, _mm_movehl_ps(hi23, hi01));
}

// Two source columns by four k, as pairs.
template <class A, int P>
void pack_transpose_2x4(const float* s, int64_t sw, float* d) {
  __m128 c0 = _mm_loadu_ps(s), c1 = _mm_loadu_ps(s + sw);
  __m128 lo = _mm_unpacklo_ps(c0, c1), hi = _mm_unpackhi_ps(c0, c1);
  _mm_storel_pi(reinterpret_cast<__m64*>(d), lo);
  _mm_storeh_pi(reinterpret_cast<__m64*>(d + P), lo);
  _mm_storel_pi(reinterpret_cast<__m64*>(d + 2 * P), hi);
  _mm_storeh_pi(reinterpret_cast<__m64*>(d + 3 * P), hi);
}

// Panel columns strided in the source, k contiguous (sk == 1): a transpose in 4 x 4 (and 2 x 4) blocks,
// four read streams at a time; the k tail and odd columns go one by one.
template <class A, int P>
void pack_panel_cols(const float* src, int64_t sw, int64_t w, int64_t kc, float* dst) {
  int64_t k4 = kc / 4 * 4, c = 0;
  for (; c + 4 <= w; c += 4)
    for (int64_t k = 0; k < k4; k += 4) pack_transpose_4x4<A, P>(src + c * sw + k, sw, dst + k * P + c);
  for (; c + 2 <= w; c += 2)
    for (int64_t k = 0; k < k4; k += 4) pack_transpose_2x4<A, P>(src + c * sw + k, sw, dst + k * P + c);
  for (; c < w; ++c)
    for (int64_t k = 0; k < k4; ++k) dst[k * P + c] = src[c * sw + k];
  for (int64_t k = k4; k < kc; ++k)
    for (int64_t j = 0; j < w; ++j) dst[k * P + j] = src[j * sw + k];
  for (int64_t k = 0; k < kc; ++k)
    for (int64_t j = w; j < P; ++j) dst[k * P + j] = 0.f;
}

// dst[p][k][c] = src[(p*P + c)*sw + k*sk] for c + p*P < width, 0 beyond; one of sw, sk is 1.
template <class A, int P>
void pack_panels(const float* src, int64_t sw, int64_t sk, int64_t width, int64_t kc, float* dst) {
  for (int64_t p0 = 0; p0 < width; p0 += P, dst += P * kc) {
    int64_t w = width - p0 < P ? width - p0 : P;
    if (sw == 1)
      pack_panel_rows<A, P>(src + p0, sk, w, kc, dst);
    else
      pack_panel_cols<A, P>(src + p0 * sw, sw, w, kc, dst);
  }
}

}  // namespace tf::cpu
