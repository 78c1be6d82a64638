// WebGPU GEMM launcher (gemm.wgsl): one 16 x 16 workgroup per 64 x 64 tile of C, the batch along z.
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "util/error.hpp"

namespace tf::webgpu {

namespace {
struct Params {
  uint32_t M, N, K, trans;
  uint32_t a, b, c, src;  // src: where beta's matrix is read, C or the bias row
  uint32_t lda, ldb, ldc, ld_src;
  uint32_t stride_a, stride_b, stride_c, stride_src;
  float alpha, beta;
  uint32_t pad3, pad4;
};
static_assert(sizeof(Params) == 80, "gemm.wgsl Params");
constexpr uint32_t kTile = 64;  // gemm.wgsl TILE

uint32_t u32(int64_t v) {
  TF_CHECK(v >= 0 && v <= INT32_MAX, "WebGPU gemm: ", v, " does not fit the shader's indices");
  return static_cast<uint32_t>(v);
}
}  // namespace

void gemm(const GemmArgs& g, const float* A, const float* B, float* C) {
  if (g.batch == 0 || g.M == 0 || g.N == 0) return;
  Params p{};
  p.M = u32(g.M), p.N = u32(g.N), p.K = u32(g.K);
  p.trans = (g.trans_a ? 1u : 0u) | (g.trans_b ? 2u : 0u);
  p.a = g.K ? word(A) : 0, p.b = g.K ? word(B) : 0, p.c = word(C);
  p.lda = u32(g.lda), p.ldb = u32(g.ldb), p.ldc = u32(g.ldc);
  p.stride_a = u32(g.stride_a), p.stride_b = u32(g.stride_b), p.stride_c = u32(g.stride_c);
  p.src = g.bias ? word(g.bias) : p.c;  // a bias row is read at row and batch stride 0
  p.ld_src = g.bias ? 0 : p.ldc, p.stride_src = g.bias ? 0 : p.stride_c;
  p.alpha = g.alpha, p.beta = g.beta;
  dispatch(Pipeline::gemm, p,
           {(p.N + kTile - 1) / kTile, (p.M + kTile - 1) / kTile, static_cast<uint32_t>(g.batch)}, {0, true});
}

}  // namespace tf::webgpu
