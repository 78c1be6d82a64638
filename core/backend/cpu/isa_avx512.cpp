// The kernel table for AVX-512 (F, CD, DQ, BW, VL); this file alone gets those flags (core/CMakeLists.txt).
#include "backend/cpu/kernel_set.hpp"

namespace tf {

const CpuKernels& cpu_kernels_avx512() {
  static const CpuKernels k = cpu::make_kernel_set<xsimd::avx512bw>("avx512");
  return k;
}

}  // namespace tf
