// The kernels for AVX-512 (F, CD, DQ, BW, VL); this file alone gets those flags (core/CMakeLists.txt).
#include "backend/cpu/kernel_set.hpp"

namespace tf {

const CpuIsa kCpuIsaAvx512{"avx512", &cpu::bind_kernels<xsimd::avx512bw>};

}  // namespace tf
