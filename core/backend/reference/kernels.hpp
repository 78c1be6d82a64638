// Scalar reference kernels: the readable oracle that the op-consistency table holds the SIMD and CUDA
// kernels to. Every kernel of kernels.hpp, defined in reference/<stem>.cpp; accumulation in double; no
// threads. Below the declarations, the few helpers that several stems (and the fast kernels) share.
#pragma once
#include "backend/kernels.hpp"

namespace tf::ref {

TF_BACKEND_KERNELS(TF_DECLARE_KERNEL)

// Whether key j is visible to query i of batch b under the masks of a (shared with the fast kernels).
inline bool attention_visible(const AttentionArgs& a, int b, int i, int j) {
  if (a.causal && j > i + a.q_offset) return false;
  return !a.key_keep || a.key_keep[static_cast<int64_t>(b) * a.Tk + j] != 0.f;
}

// log sum exp of a row in double; NaN if any element is NaN (softmax and cross-entropy).
double row_lse(const float* x, int64_t cols);

// f(i0, i1, i2, i3) over the 4-D index space in row-major order, and an operand's offset by its strides.
template <class F>
void for_each4(const Dims4& d, F f) {
  const auto& s = d.size;
  for (int64_t i0 = 0; i0 < s[0]; ++i0)
    for (int64_t i1 = 0; i1 < s[1]; ++i1)
      for (int64_t i2 = 0; i2 < s[2]; ++i2)
        for (int64_t i3 = 0; i3 < s[3]; ++i3) f(i0, i1, i2, i3);
}
inline int64_t at(const Strides4& st, int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
  return i0 * st[0] + i1 * st[1] + i2 * st[2] + i3 * st[3];
}

}  // namespace tf::ref
