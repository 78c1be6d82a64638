// WebGPU GEMM launcher (gemm.wgsl): one 64-invocation workgroup per E x E tile of C, batch items along z.
// It picks the variant per call: vec4 loads for each operand whose offset, leading dimension, batch stride
// and contiguous size are multiples of 4 (scalar loads otherwise), and the tile edge E: 64, or 32 or 16
// until there are kWantGroups workgroups, where K fills the smaller tile's rounds (its invocations split K).
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"

namespace tf::webgpu {

namespace {

struct Params {
  uint32_t M, N, K, flags;
  uint32_t a, b, c, src;  // src: where beta's matrix is read, C or the bias row
  uint32_t lda, ldb, ldc, ld_src;
  uint32_t stride_a, stride_b, stride_c, stride_src;
  float alpha, beta;
  uint32_t edge, pad;
};
static_assert(sizeof(Params) == 80, "gemm.wgsl Params");

constexpr uint32_t kWantGroups = 64;  // fewer tiles of 64 x 64 than this, and the tiles shrink

enum Flags : uint32_t { kTransA = 1, kTransB = 2, kVecA = 4, kVecB = 8, kVecC = 16 };

// Whether a matrix at word `at` can be read as vec4 along its rows (stride: between batch items, 0 for one).
bool vec4_rows(uint32_t at, uint32_t ld, uint32_t stride, uint32_t cols) {
  return (at | ld | stride | cols) % 4 == 0;
}

uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

}  // namespace

void gemm(const GemmArgs& g, const float* A, const float* B, float* C) {
  if (g.batch == 0 || g.M == 0 || g.N == 0) return;
  Params p{};
  p.M = u32(g.M), p.N = u32(g.N), p.K = u32(g.K);
  uint32_t batch = u32(g.batch);
  p.a = g.K ? word(A) : 0, p.b = g.K ? word(B) : 0, p.c = word(C);
  p.lda = u32(g.lda), p.ldb = u32(g.ldb), p.ldc = u32(g.ldc);
  p.stride_a = u32(g.stride_a), p.stride_b = u32(g.stride_b), p.stride_c = u32(g.stride_c);
  p.src = g.bias ? word(g.bias) : p.c;  // a bias row is read at row and batch stride 0
  p.ld_src = g.bias ? 0 : p.ldc, p.stride_src = g.bias ? 0 : p.stride_c;
  p.alpha = g.alpha, p.beta = g.beta;
  uint32_t many = batch > 1 ? ~0u : 0u;  // batch strides matter only with several items
  bool vec_c = vec4_rows(p.c, p.ldc, p.stride_c & many, p.N) &&
               (g.beta == 0.f || vec4_rows(p.src, p.ld_src, p.stride_src & many, p.N));
  p.flags = (g.trans_a ? kTransA : 0) | (g.trans_b ? kTransB : 0) | (vec_c ? kVecC : 0) |
            (vec4_rows(p.a, p.lda, p.stride_a & many, g.trans_a ? p.M : p.K) ? kVecA : 0) |
            (vec4_rows(p.b, p.ldb, p.stride_b & many, g.trans_b ? p.K : p.N) ? kVecB : 0);
  // A smaller tile's round of K (1024 / its edge) must be filled by K rather than padding.
  p.edge = 64;
  while (p.edge > 16 && uint64_t{ceil_div(p.M, p.edge)} * ceil_div(p.N, p.edge) * batch < kWantGroups &&
         p.K >= 2048 / p.edge)
    p.edge /= 2;
  dispatch(Pipeline::gemm, p, {ceil_div(p.N, p.edge), ceil_div(p.M, p.edge), batch}, {0, true});
}

}  // namespace tf::webgpu
