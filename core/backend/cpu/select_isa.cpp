// Chooses the instruction set once, at start-up: the best one compiled in that the processor supports,
// unless TF_CPU_ISA names another (tests use it to check every ISA against the reference kernels).
#include <cstdlib>
#include <string>

#include <xsimd/config/xsimd_cpuid.hpp>

#include "backend/cpu/kernel_table.hpp"
#include "util/error.hpp"

namespace tf {

#ifdef TF_ISA_AVX512
const CpuKernels& cpu_kernels_avx512();
#endif
#ifdef TF_ISA_AVX2
const CpuKernels& cpu_kernels_avx2();
#endif
const CpuKernels& cpu_kernels_sse41();

std::vector<const CpuKernels*> supported_cpu_kernels() {
  std::vector<const CpuKernels*> out;
#if defined(__EMSCRIPTEN__)
  out.push_back(&cpu_kernels_sse41());  // wasm SIMD, fixed at compile time
#else
  auto cpu = xsimd::available_architectures();
#ifdef TF_ISA_AVX512
  if (cpu.avx512bw) out.push_back(&cpu_kernels_avx512());
#endif
#ifdef TF_ISA_AVX2
  if (cpu.fma3_avx2) out.push_back(&cpu_kernels_avx2());
#endif
  if (cpu.sse4_1) out.push_back(&cpu_kernels_sse41());
#endif
  TF_CHECK(!out.empty(), "this processor lacks SSE4.1, the least instruction set Tinyformer is built for");
  return out;
}

const CpuKernels& select_cpu_kernels() {
  static const CpuKernels* chosen = [] {
    std::vector<const CpuKernels*> all = supported_cpu_kernels();
    const char* want = std::getenv("TF_CPU_ISA");
    if (!want || !*want) return all.front();
    for (const CpuKernels* k : all)
      if (std::string(k->isa) == want) return k;
    fail("TF_CPU_ISA=", want, " is not compiled in or not supported by this processor");
  }();
  return *chosen;
}

}  // namespace tf
