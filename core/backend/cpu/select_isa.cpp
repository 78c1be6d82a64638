// The CPU backend: host memory, and the kernels of the best instruction set compiled in that the processor
// supports, chosen once at start-up, unless TF_CPU_ISA names another (tests use every supported one to check
// each ISA against the reference kernels).
#include <cstdlib>
#include <string>

#include <xsimd/config/xsimd_cpuid.hpp>

#include "backend/cpu/isa.hpp"
#include "backend/host_memory.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

std::vector<const CpuIsa*> supported_isas() {
  std::vector<const CpuIsa*> out;
#if defined(__EMSCRIPTEN__)
  out.push_back(&kCpuIsaSse41);  // wasm SIMD, fixed at compile time
#else
  auto cpu = xsimd::available_architectures();
#ifdef TF_ISA_AVX512
  if (cpu.avx512bw) out.push_back(&kCpuIsaAvx512);
#endif
#ifdef TF_ISA_AVX2
  if (cpu.fma3_avx2) out.push_back(&kCpuIsaAvx2);
#endif
  if (cpu.sse4_1) out.push_back(&kCpuIsaSse41);
#endif
  TF_CHECK(!out.empty(), "this processor lacks SSE4.1, the least instruction set Tinyformer is built for");
  return out;
}

}  // namespace

std::vector<Backend*> supported_cpu_backends() {
  // Never destroyed, the list included: storages freed after main returns still reach their backend, and
  // a list destroyed at exit would leave the backends unreachable (LeakSanitizer reports them).
  static const std::vector<Backend*>* backends = [] {
    auto* out = new std::vector<Backend*>();
    for (const CpuIsa* isa : supported_isas()) {
      out->push_back(new Backend(host_backend(std::string("cpu-") + isa->name)));
      isa->bind(*out->back());
    }
    return out;
  }();
  return *backends;
}

Backend& cpu_backend() {
  static Backend* chosen = [] {
    std::vector<Backend*> all = supported_cpu_backends();
    const char* want = std::getenv("TF_CPU_ISA");
    if (!want || !*want) return all.front();
    for (Backend* b : all)
      if (std::string(b->name()) == std::string("cpu-") + want) return b;
    fail("TF_CPU_ISA=", want, " is not compiled in or not supported by this processor");
  }();
  return *chosen;
}

}  // namespace tf
