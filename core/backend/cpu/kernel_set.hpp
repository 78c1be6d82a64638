// Binds every kernel of kernels.hpp for one instruction set A: the table entry NAME gets cpu::NAME<A> from
// the stem file cpu/<stem>.hpp. Included only by the isa_<name>.cpp files, each compiled with that
// instruction set's flags; the Backend table itself is built elsewhere (select_isa.cpp), so no code
// outside the A-templates is compiled with those flags.
#pragma once
#include "backend/backend.hpp"
#include "backend/cpu/attention.hpp"
#include "backend/cpu/copy_strided.hpp"
#include "backend/cpu/cross_entropy.hpp"
#include "backend/cpu/elementwise.hpp"
#include "backend/cpu/embedding.hpp"
#include "backend/cpu/gelu.hpp"
#include "backend/cpu/gemm.hpp"
#include "backend/cpu/isa.hpp"
#include "backend/cpu/layer_norm.hpp"
#include "backend/cpu/masked_fill.hpp"
#include "backend/cpu/optimizer.hpp"
#include "backend/cpu/reduce.hpp"
#include "backend/cpu/rotary.hpp"
#include "backend/cpu/softmax.hpp"
#include "backend/cpu/step_guard.hpp"

namespace tf::cpu {

template <class A>
void bind_kernels(Backend& table) {
#define TF_BIND_CPU(stem, ret, name, params) table.name = &cpu::name<A>;
  TF_BACKEND_KERNELS(TF_BIND_CPU)
#undef TF_BIND_CPU
}

}  // namespace tf::cpu
