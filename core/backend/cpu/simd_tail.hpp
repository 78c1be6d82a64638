// Partial loads and stores for the tail of a row whose length is not a multiple of the register width, and
// elementwise and reduction drivers built on them. A tail is computed with exactly the same SIMD
// arithmetic as the body: an element's result never depends on where a thread's range starts.
// Every helper is a template on the architecture A, so each isa_<name>.cpp object gets its own copy (the
// objects are compiled with different -m flags and linked together; a shared inline helper could end up
// as the AVX-512 copy on an SSE machine).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "backend/cpu/simd.hpp"

namespace tf::cpu {

// The first n (0 < n < lanes) floats at p; the other lanes hold `fill`. AVX-512 and AVX2 use masked loads
// (no memory beyond p + n is touched); elsewhere the tail goes through a stack buffer.
template <class A>
batch<A> load_tail(const float* p, size_t n, float fill) {
#if defined(__AVX512F__)
  if constexpr (std::is_base_of<xsimd::avx512f, A>::value)
    return batch<A>(_mm512_mask_loadu_ps(_mm512_set1_ps(fill), static_cast<__mmask16>((1u << n) - 1u), p));
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of<xsimd::avx2, A>::value) {
    __m256i mask =
        _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    return batch<A>(
        _mm256_blendv_ps(_mm256_set1_ps(fill), _mm256_maskload_ps(p, mask), _mm256_castsi256_ps(mask)));
  }
#endif
  alignas(64) float buf[batch<A>::size];
  for (size_t i = 0; i < batch<A>::size; ++i) buf[i] = i < n ? p[i] : fill;
  return batch<A>::load_aligned(buf);
}

// Writes the first n (0 < n < lanes) lanes of v to p.
template <class A>
void store_tail(float* p, size_t n, const batch<A>& v) {
#if defined(__AVX512F__)
  if constexpr (std::is_base_of<xsimd::avx512f, A>::value) {
    _mm512_mask_storeu_ps(p, static_cast<__mmask16>((1u << n) - 1u), v);
    return;
  }
#endif
#if defined(__AVX2__)
  if constexpr (std::is_base_of<xsimd::avx2, A>::value) {
    _mm256_maskstore_ps(
        p,
        _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)),
        v);
    return;
  }
#endif
  alignas(64) float buf[batch<A>::size];
  v.store_aligned(buf);
  for (size_t i = 0; i < n; ++i) p[i] = buf[i];
}

// The full register at p when n == lanes, else the tail of n (> 0) floats and `fill`.
template <class A>
batch<A> load_upto(const float* p, int64_t n, float fill) {
  return n == static_cast<int64_t>(batch<A>::size) ? batch<A>::load_unaligned(p)
                                                   : load_tail<A>(p, static_cast<size_t>(n), fill);
}
template <class A>
void store_upto(float* p, int64_t n, const batch<A>& v) {
  if (n == static_cast<int64_t>(batch<A>::size))
    v.store_unaligned(p);
  else
    store_tail<A>(p, static_cast<size_t>(n), v);
}

// 0, 1, 2, ... lanes-1 as floats (exact: lanes are few).
template <class A>
batch<A> lane_index() {
  alignas(64) static const float index[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  static_assert(batch<A>::size <= 16, "lane_index covers up to 16 lanes");
  return batch<A>::load_aligned(index);
}

// y[i] = f(x[i]) for i < n, f taking and returning batch<A>; tail lanes read `fill`.
template <class A, class F>
void map_unary(const float* x, float* y, size_t n, float fill, F f) {
  constexpr size_t W = batch<A>::size;
  size_t i = 0;
  for (; i + W <= n; i += W) f(batch<A>::load_unaligned(x + i)).store_unaligned(y + i);
  if (i < n) store_tail<A>(y + i, n - i, f(load_tail<A>(x + i, n - i, fill)));
}

// y[i] = f(x[i], s) and z[i] = s for i < n: f returns one result and sets a second; tail lanes read 0.
template <class A, class F>
void map_unary_pair(const float* x, float* y, float* z, size_t n, F f) {
  constexpr size_t W = batch<A>::size;
  size_t i = 0;
  batch<A> s;
  for (; i + W <= n; i += W) {
    f(batch<A>::load_unaligned(x + i), s).store_unaligned(y + i);
    s.store_unaligned(z + i);
  }
  if (i < n) {
    store_tail<A>(y + i, n - i, f(load_tail<A>(x + i, n - i, 0.f), s));
    store_tail<A>(z + i, n - i, s);
  }
}

// out[i] = f(a[i], b[i]) for i < n.
template <class A, class F>
void map_binary(const float* a, const float* b, float* out, size_t n, F f) {
  constexpr size_t W = batch<A>::size;
  size_t i = 0;
  for (; i + W <= n; i += W)
    f(batch<A>::load_unaligned(a + i), batch<A>::load_unaligned(b + i)).store_unaligned(out + i);
  if (i < n)
    store_tail<A>(out + i, n - i, f(load_tail<A>(a + i, n - i, 0.f), load_tail<A>(b + i, n - i, 0.f)));
}

// y[i] = f(a[i], y[i]): an update in place with one read-only operand.
template <class A, class F>
void update_binary(const float* a, float* y, size_t n, F f) {
  map_binary<A>(a, y, y, n, f);
}

// The sum over c < C of f(x[c]), f taking and returning batch<A>; tail lanes read `fill`.
template <class A, class F>
float row_sum(const float* x, int64_t C, float fill, F f) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  batch<A> acc0(0.f), acc1(0.f);
  int64_t c = 0;
  for (; c + 2 * W <= C; c += 2 * W) {
    acc0 += f(batch<A>::load_unaligned(x + c));
    acc1 += f(batch<A>::load_unaligned(x + c + W));
  }
  for (; c + W <= C; c += W) acc0 += f(batch<A>::load_unaligned(x + c));
  if (c < C) acc1 += f(load_tail<A>(x + c, static_cast<size_t>(C - c), fill));
  return xsimd::hadd(acc0 + acc1);
}

// The lanes of v as a plain maximum; callers check NaN separately (a SIMD max may drop it).
template <class A>
float lane_max(const batch<A>& v) {
  alignas(64) float buf[batch<A>::size];
  v.store_aligned(buf);
  float m = buf[0];
  for (size_t i = 1; i < batch<A>::size; ++i) m = buf[i] > m ? buf[i] : m;
  return m;
}

}  // namespace tf::cpu
