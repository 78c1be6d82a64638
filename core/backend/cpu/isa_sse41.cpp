// The kernels for SSE4.1: the native fallback, and under emcc the wasm SIMD build (-msimd128 -msse4.1).
#include "backend/cpu/kernel_set.hpp"

namespace tf {

const CpuIsa kCpuIsaSse41{"sse4.1", &cpu::bind_kernels<xsimd::sse4_1>};

}  // namespace tf
