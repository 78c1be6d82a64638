// Assembles the kernel table for one instruction set A from the per-op kernel templates. Included only by
// the isa_<name>.cpp files, each compiled with that instruction set's flags.
#pragma once
#include "backend/cpu/attention.hpp"
#include "backend/cpu/copy_strided.hpp"
#include "backend/cpu/cross_entropy.hpp"
#include "backend/cpu/elementwise.hpp"
#include "backend/cpu/embedding.hpp"
#include "backend/cpu/gelu.hpp"
#include "backend/cpu/gemm.hpp"
#include "backend/cpu/kernel_table.hpp"
#include "backend/cpu/layer_norm.hpp"
#include "backend/cpu/masked_fill.hpp"
#include "backend/cpu/optimizer.hpp"
#include "backend/cpu/reduce.hpp"
#include "backend/cpu/rotary.hpp"
#include "backend/cpu/softmax.hpp"

namespace tf::cpu {

template <class A>
CpuKernels make_kernel_set(const char* isa) {
  CpuKernels k;
  k.isa = isa;
  k.simd_width = static_cast<int>(batch<A>::size);
  k.gemm = &gemm<A>;
  k.binary_rows = &binary_rows<A>;
  k.copy_strided_rows = &copy_strided_rows<A>;
  k.masked_fill_rows = &masked_fill_rows<A>;
  k.scale = &scale<A>;
  k.axpy = &axpy<A>;
  k.mul_accumulate = &mul_accumulate<A>;
  k.sum = &sum<A>;
  k.sum_squares = &sum_squares<A>;
  k.sum_rows = &sum_rows<A>;
  k.all_finite = &all_finite<A>;
  k.layer_norm_forward = &layer_norm_forward<A>;
  k.layer_norm_backward = &layer_norm_backward<A>;
  k.gelu_forward = &gelu_forward<A>;
  k.gelu_backward = &gelu_backward<A>;
  k.softmax_forward = &softmax_forward<A>;
  k.softmax_backward = &softmax_backward<A>;
  k.log_softmax_forward = &log_softmax_forward<A>;
  k.log_softmax_backward = &log_softmax_backward<A>;
  k.embedding_forward = &embedding_forward<A>;
  k.embedding_backward = &embedding_backward<A>;
  k.attention_forward = &attention_forward<A>;
  k.attention_backward = &attention_backward<A>;
  k.cross_entropy_forward = &cross_entropy_forward<A>;
  k.cross_entropy_backward = &cross_entropy_backward<A>;
  k.rotary_rows = &rotary_rows<A>;
  k.adam_step = &adam_step<A>;
  k.sgd_step = &sgd_step<A>;
  return k;
}

}  // namespace tf::cpu
