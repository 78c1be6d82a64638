// The xsimd shim: the only header that includes xsimd. Kernels are templates over an xsimd architecture
// tag A and use batch<A> = xsimd::batch<float, A>; each isa_<name>.cpp instantiates them for one ISA.
#pragma once
#include <type_traits>

#include <xsimd/xsimd.hpp>

namespace tf::cpu {

template <class A>
using batch = xsimd::batch<float, A>;

// a * b + c, fused where the ISA has FMA. xsimd 8.1 has no AVX-512 fma kernel (its generic one rounds
// twice, and is twice as slow), so that ISA calls the intrinsic; __AVX512F__ is defined only where
// isa_avx512.cpp (or -march=native) allows it.
template <class A>
batch<A> fmadd(const batch<A>& a, const batch<A>& b, const batch<A>& c) {
#if defined(__AVX512F__)
  if constexpr (std::is_base_of<xsimd::avx512f, A>::value) return batch<A>(_mm512_fmadd_ps(a, b, c));
#endif
  return xsimd::fma(a, b, c);
}

}  // namespace tf::cpu
