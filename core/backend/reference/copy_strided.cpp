// Reference strided copy over the 4-D index space: permutes, narrows, concatenations.
#include "backend/reference/kernels.hpp"

namespace tf::ref {

void copy_strided(const float* src, const Strides4& ss, float* dst, const Strides4& ds, const Dims4& dims,
                  bool accumulate) {
  for_each4(dims, [&](int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
    float v = src[at(ss, i0, i1, i2, i3)];
    float& d = dst[at(ds, i0, i1, i2, i3)];
    d = accumulate ? d + v : v;
  });
}

}  // namespace tf::ref
