// The CPU backend's instruction sets. Each isa_<name>.cpp, compiled alone with that instruction set's
// flags, names one and binds the kernel templates of every stem for it (kernel_set.hpp); select_isa.cpp
// builds one backend table per instruction set the processor supports and chooses one once per process.
#pragma once
#include <vector>

#include "backend/backend.hpp"

namespace tf {

struct CpuIsa {
  const char* name;              // as TF_CPU_ISA spells it, e.g. "avx2+fma"
  void (*bind)(Backend& table);  // fills every kernel entry of the table
};

extern const CpuIsa kCpuIsaAvx512;  // isa_avx512.cpp, native builds only
extern const CpuIsa kCpuIsaAvx2;    // isa_avx2.cpp, native builds only
extern const CpuIsa kCpuIsaSse41;   // isa_sse41.cpp; wasm SIMD under emcc

// A CPU backend per instruction set compiled into this binary that the processor supports, best first.
// cpu_backend() is the first of them, or the one named by TF_CPU_ISA (e.g. TF_CPU_ISA=sse4.1) when set.
std::vector<Backend*> supported_cpu_backends();

}  // namespace tf
