// CPU step guard: a few dozen sums of squares added in double, no SIMD or threads to gain from; the row is
// the one backend/optimizer_update.hpp works out (so it matches the reference bit for bit).
#pragma once
#include <cstddef>

#include "backend/optimizer_update.hpp"

namespace tf::cpu {

template <class A>
void step_guard(const float* squares, size_t n, const float* loss, float report_scale, float max_norm,
                float* out) {
  step_guard_row(squares, n, loss[0], report_scale, max_norm, out);
}

}  // namespace tf::cpu
