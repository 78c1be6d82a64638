// The kernel table for SSE4.1: the native fallback, and under emcc the wasm SIMD build (-msimd128 -msse4.1).
#include "backend/cpu/kernel_set.hpp"

namespace tf {

const CpuKernels& cpu_kernels_sse41() {
  static const CpuKernels k = cpu::make_kernel_set<xsimd::sse4_1>("sse4.1");
  return k;
}

}  // namespace tf
