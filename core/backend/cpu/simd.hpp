// The xsimd shim: the only header that includes xsimd. Kernels are templates over an xsimd architecture
// tag A and use batch<A> = xsimd::batch<float, A>; each isa_<name>.cpp instantiates them for one ISA.
#pragma once
#include <xsimd/xsimd.hpp>

namespace tf::cpu {

template <class A>
using batch = xsimd::batch<float, A>;

}  // namespace tf::cpu
