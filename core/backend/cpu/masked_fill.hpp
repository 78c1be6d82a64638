// CPU masked fill: y = mask != 0 ? value : x, the mask broadcast by strides. A mask row that is contiguous
// or one broadcast value runs as a SIMD select; other strides run the scalar loop. The select tests
// mask == 0 (xsimd's != is ordered on AVX, so a NaN mask would keep x where the scalar test fills).
#pragma once
#include "backend/cpu/elementwise.hpp"
#include "backend/cpu/parallel.hpp"

namespace tf::cpu {

template <class A>
void masked_fill_row(const float* x, const float* mask, int64_t im, float value, float* y, int64_t n) {
  if (im != 0 && im != 1) {
    for (int64_t j = 0; j < n; ++j) y[j] = mask[j * im] != 0.f ? value : x[j];
    return;
  }
  constexpr size_t W = batch<A>::size;
  size_t len = static_cast<size_t>(n), j = 0;
  batch<A> v(value), zero(0.f);
  for (; j + W <= len; j += W)
    xsimd::select(row_load<A>(mask, im, j) == zero, batch<A>::load_unaligned(x + j), v)
        .store_unaligned(y + j);
  if (j < len) {
    size_t m = len - j;
    store_tail<A>(y + j, m,
                  xsimd::select(row_load_tail<A>(mask, im, j, m) == zero, load_tail<A>(x + j, m, 0.f), v));
  }
}

template <class A>
void masked_fill_rows(const float* x, const float* mask, const Strides4& ms, float value, float* y,
                      const Dims4& d, int64_t row0, int64_t row1) {
  for_rows4<A>(d, ms, ms, row0, row1, [&](int64_t om, int64_t, int64_t oo) {
    masked_fill_row<A>(x + oo, mask + om, ms[3], value, y + oo, d.size[3]);
  });
}

// ---- the kernels of kernels.hpp, spread over the thread pool ----

template <class A>
void masked_fill(const float* x, const float* mask, const Strides4& mask_strides, float value, float* y,
                 const Dims4& dims) {
  for_rows(rows_of(dims), dims.size[3], [&](int64_t r0, int64_t r1) {
    masked_fill_rows<A>(x, mask, mask_strides, value, y, dims, r0, r1);
  });
}

}  // namespace tf::cpu
