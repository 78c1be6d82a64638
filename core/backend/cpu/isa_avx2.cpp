// The kernel table for AVX2 with FMA; this file alone is compiled with -mavx2 -mfma (core/CMakeLists.txt).
#include "backend/cpu/kernel_set.hpp"

namespace tf {

const CpuKernels& cpu_kernels_avx2() {
  static const CpuKernels k = cpu::make_kernel_set<xsimd::fma3<xsimd::avx2>>("avx2+fma");
  return k;
}

}  // namespace tf
