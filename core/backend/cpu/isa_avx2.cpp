// The kernels for AVX2 with FMA; this file alone is compiled with -mavx2 -mfma (core/CMakeLists.txt).
#include "backend/cpu/kernel_set.hpp"

namespace tf {

const CpuIsa kCpuIsaAvx2{"avx2+fma", &cpu::bind_kernels<xsimd::fma3<xsimd::avx2>>};

}  // namespace tf
