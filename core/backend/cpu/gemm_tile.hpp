// Register and cache blocking of the CPU GEMM per instruction set, chosen by register width. The micro-tile
// MR x NR (NR = NV vectors) is sized to the register file: accumulators + NV B vectors + one broadcast.
// KC keeps a KC x NR panel of packed B in L1, MC x KC of packed A in L2, KC x NC of packed B in L2/L3.
#pragma once
#include <cstddef>

#include "backend/cpu/simd.hpp"

namespace tf::cpu {

template <class A, size_t W = batch<A>::size>
struct GemmTile;

// AVX-512, 32 zmm: 14 x 32 = 28 accumulators + 2 B vectors + 1 broadcast. (12 x 32 made GCC 12 keep a
// B vector on the stack and lose a quarter of the speed.)
template <class A>
struct GemmTile<A, 16> {
  static constexpr int MR = 14, NV = 2, KC = 256, MC = 168, NC = 2048;
};

// AVX2, 16 ymm: 6 x 16 = 12 accumulators + 2 B vectors + 1 broadcast.
template <class A>
struct GemmTile<A, 8> {
  static constexpr int MR = 6, NV = 2, KC = 256, MC = 144, NC = 2048;
};

// SSE4.1 natively and wasm SIMD: no FMA, so each product needs a scratch register, and V8 keeps one of
// its 16 xmm registers for itself. 5 x 8 = 10 accumulators + 2 B vectors + broadcast + product = 14 fits
// (with the micro-kernel kept out of line in wasm, gemm_micro.hpp); 6 x 8 spilled and ran at 60 % of
// its speed under Node 20. Node 20 on one core: 4 x 8 34 GFLOP/s on the model's shapes, 5 x 8 38, 3 x 12 37.
// KC 512 (a 16 KB panel of B and 10 KB of A, still in L1) leaves C fewer passes than 256: the model's
// products over K = 384..512 run in one K block, those over K = 2002 and 2048 in four (Node 20, 1 thread:
// 35.3-35.8 -> 36.6-37.4 GFLOP/s there, 37.4-38.0 -> 38.2-39.3 on the K = 384 and 512 shapes).
template <class A>
struct GemmTile<A, 4> {
  static constexpr int MR = 5, NV = 2, KC = 512, MC = 140, NC = 2048;
};

}  // namespace tf::cpu
