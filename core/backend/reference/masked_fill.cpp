// Reference masked fill: the mask is read through its (broadcast) strides, x and y are contiguous.
#include "backend/reference/kernels.hpp"

namespace tf::ref {

void masked_fill(const float* x, const float* mask, const Strides4& ms, float value, float* y,
                 const Dims4& dims) {
  int64_t n = 0;
  for_each4(dims, [&](int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
    y[n] = mask[at(ms, i0, i1, i2, i3)] != 0.f ? value : x[n];
    ++n;
  });
}

}  // namespace tf::ref
