// Benchmark (not a test): the arithmetic ceiling of one core for the instruction set the kernels use —
// twelve independent multiply-add chains on full registers (fused natively where the ISA has FMA; in wasm a
// multiply and an add, as this Emscripten has no usable FMA), so GEMM and step GFLOP/s can be read as a
// share of what the core can do at all. Natively it is built for the build machine (-march=native), in wasm
// with the core's SIMD flags. run_gemm_bench.sh prints it under its table. Prints one JSON line.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "backend/cpu/simd.hpp"

namespace {

using A = xsimd::default_arch;
using B = tf::cpu::batch<A>;
constexpr int kChains = 12;  // enough in flight for two pipes of 4-6 cycles; more spill in V8 (15 xmm)

// GFLOP/s of `rounds` rounds of kChains multiply-adds. Called several times: V8 runs a wasm function's
// first calls unoptimized and has no on-stack replacement, so one long call (or one inlined into main)
// would time its baseline tier.
__attribute__((noinline)) double gflops_once(long rounds) {
  B acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = B(1.f + 0.001f * static_cast<float>(c));
  B x(0.999f), y(1e-4f);
  auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < rounds; ++i)
    for (int c = 0; c < kChains; ++c) acc[c] = tf::cpu::fmadd<A>(acc[c], x, y);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  B sum(0.f);
  for (int c = 0; c < kChains; ++c) sum += acc[c];
  volatile float sink = xsimd::hadd(sum);  // keeps the chains alive
  (void)sink;
  return 2.0 * kChains * static_cast<double>(B::size) * static_cast<double>(rounds) / seconds * 1e-9;
}

}  // namespace

int main() {
  double best = 0;
  for (int r = 0; r < 8; ++r) best = std::max(best, gflops_once(100'000'000 / static_cast<long>(B::size)));
  std::printf("{\"isa\":\"%s\",\"lanes\":%d,\"peak_gflops\":%.1f}\n", A::name(), static_cast<int>(B::size),
              best);
}
