// CPU masked fill: y = mask != 0 ? value : x, the mask broadcast by strides.
#pragma once
#include "backend/cpu/elementwise.hpp"

namespace tf::cpu {

template <class A>
void masked_fill_rows(const float* x, const float* mask, const Strides4& ms, float value, float* y, const Dims4& d,
                      int64_t row0, int64_t row1) {
  int64_t n = d.size[3];
  for_rows4(d, ms, ms, row0, row1, [&](int64_t om, int64_t, int64_t oo) {
    for (int64_t j = 0; j < n; ++j) y[oo + j] = mask[om + j * ms[3]] != 0.f ? value : x[oo + j];
  });
}

}  // namespace tf::cpu
