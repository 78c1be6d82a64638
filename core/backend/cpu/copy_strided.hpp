// CPU strided copy: permutes, narrows and concatenations, optionally accumulating.
#pragma once
#include "backend/cpu/elementwise.hpp"

namespace tf::cpu {

template <class A>
void copy_strided_rows(const float* src, const Strides4& ss, float* dst, const Strides4& ds, const Dims4& d,
                       bool accumulate, int64_t row0, int64_t row1) {
  int64_t n = d.size[3];
  for_rows4(d, ss, ds, row0, row1, [&](int64_t os, int64_t od, int64_t) {
    const float* s = src + os;
    float* t = dst + od;
    for (int64_t j = 0; j < n; ++j) {
      float v = s[j * ss[3]];
      t[j * ds[3]] = accumulate ? t[j * ds[3]] + v : v;
    }
  });
}

}  // namespace tf::cpu
