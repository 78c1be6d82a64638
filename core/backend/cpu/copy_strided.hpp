// CPU strided copy: permutes, narrows and concatenations, optionally accumulating. Rows contiguous on both
// sides (every narrow and concat, and permutes that keep the last axis) copy or add in SIMD; a row that
// walks memory with a stride (a transpose of the last axis) falls back to the scalar loop.
#pragma once
#include <cstring>

#include "backend/cpu/elementwise.hpp"
#include "backend/cpu/parallel.hpp"

namespace tf::cpu {

template <class A>
void copy_row(const float* s, int64_t is, float* t, int64_t it, int64_t n, bool accumulate) {
  if (is == 1 && it == 1) {
    if (accumulate)
      update_binary<A>(s, t, static_cast<size_t>(n),
                       [](const batch<A>& v, const batch<A>& y) { return y + v; });
    else
      std::memcpy(t, s, static_cast<size_t>(n) * sizeof(float));
    return;
  }
  for (int64_t j = 0; j < n; ++j) {
    float v = s[j * is];
    t[j * it] = accumulate ? t[j * it] + v : v;
  }
}

template <class A>
void copy_strided_rows(const float* src, const Strides4& ss, float* dst, const Strides4& ds, const Dims4& d,
                       bool accumulate, int64_t row0, int64_t row1) {
  for_rows4<A>(d, ss, ds, row0, row1, [&](int64_t os, int64_t od, int64_t) {
    copy_row<A>(src + os, ss[3], dst + od, ds[3], d.size[3], accumulate);
  });
}

// ---- the kernels of kernels.hpp, spread over the thread pool ----

template <class A>
void copy_strided(const float* src, const Strides4& src_strides, float* dst, const Strides4& dst_strides,
                  const Dims4& dims, bool accumulate) {
  const Strides4& ds = dst_strides;
  bool dst_aliases = accumulate && (ds[0] == 0 || ds[1] == 0 || ds[2] == 0 || ds[3] == 0);
  if (dst_aliases) {  // several sources add into one destination: keep it serial and ordered
    copy_strided_rows<A>(src, src_strides, dst, ds, dims, accumulate, 0, rows_of(dims));
    return;
  }
  for_rows(rows_of(dims), dims.size[3], [&](int64_t r0, int64_t r1) {
    copy_strided_rows<A>(src, src_strides, dst, ds, dims, accumulate, r0, r1);
  });
}

}  // namespace tf::cpu
