// The xsimd shim: the only header that includes xsimd. Kernels are templates over an xsimd architecture
// tag A and use batch<A> = xsimd::batch<float, A>; each isa_<name>.cpp instantiates them for one ISA.
#pragma once
#include <type_traits>

#if defined(__EMSCRIPTEN__) && defined(__wasm_simd128__)
// Emscripten 3.1.6 emulates SSE2's float -> int32 conversions with a scalar loop per lane (lrint and range
// checks), and xsimd's exp converts on every call (2^k by ldexp), so exp-heavy kernels (softmax, GELU,
// cross-entropy) ran 5-7x slower in wasm than natively. wasm SIMD converts in one instruction, saturating
// where SSE gives INT_MIN: the same ints for every lane xsimd keeps (exp replaces lanes past its range with 0
// or inf, and a NaN lane stays NaN whatever its 2^k). Defined after the SSE headers, before xsimd's code.
#include <smmintrin.h>
#include <wasm_simd128.h>
static inline __m128i tf_wasm_cvttps_epi32(__m128 a) {
  return (__m128i)wasm_i32x4_trunc_sat_f32x4((v128_t)a);
}
static inline __m128i tf_wasm_cvtps_epi32(__m128 a) {
  return (__m128i)wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest((v128_t)a));
}
#define _mm_cvttps_epi32 tf_wasm_cvttps_epi32
#define _mm_cvtps_epi32 tf_wasm_cvtps_epi32
#endif

// GCC 12 warns that the AVX-512 intrinsics' deliberately undefined operands (_mm512_undefined_ps() and the
// like, in its own avx512fintrin.h) "may be used uninitialized" wherever they are inlined: a system header's
// false alarm that its system-header status does not silence, so it is turned off for these headers alone.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <xsimd/xsimd.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace tf::cpu {

template <class A>
using batch = xsimd::batch<float, A>;

// a * b + c, fused where the ISA has FMA. xsimd 8.1 has no AVX-512 fma kernel (its generic one rounds
// twice, and is twice as slow), so that ISA calls the intrinsic; __AVX512F__ is defined only where
// isa_avx512.cpp (or -march=native) allows it.
template <class A>
batch<A> fmadd(const batch<A>& a, const batch<A>& b, const batch<A>& c) {
#if defined(__AVX512F__)
  if constexpr (std::is_base_of<xsimd::avx512f, A>::value) return batch<A>(_mm512_fmadd_ps(a, b, c));
#endif
  return xsimd::fma(a, b, c);
}

}  // namespace tf::cpu
