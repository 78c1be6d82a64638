// LayerNorm on WebGPU (layer_norm.wgsl): a workgroup per row for y and dx, a column-block reduction
// (launch.hpp) for the accumulated dgamma and dbeta.
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"
#include "backend/webgpu/launch.hpp"

namespace tf::webgpu {

namespace {

struct LayerNormParams {
  uint32_t x, gamma, beta, y, mean, rstd, rows, C;
  float eps;
  uint32_t dy, dgamma, dbeta, cw, pad[3];
};
static_assert(sizeof(LayerNormParams) == 64);

}  // namespace

void layer_norm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                        float* rstd, int64_t rows, int64_t C, float eps) {
  if (rows <= 0 || C <= 0) return;
  u32(rows * C);
  LayerNormParams p{word(x), word(gamma), word(beta), word(y), word(mean), word(rstd), u32(rows),
                    u32(C),  eps,         0,          0,       0,          0,          {}};
  dispatch(Pipeline::layer_norm_forward, p, {row_groups(rows)});
}

void layer_norm_backward(const float* dy, const float* x, const float* gamma, const float* mean,
                         const float* rstd, float* dx, float* dgamma, float* dbeta, int64_t rows, int64_t C) {
  if (rows <= 0 || C <= 0) return;
  u32(rows * C);
  LayerNormParams p{word(x), word(gamma), 0,        word(dx),     word(mean),  word(rstd),          u32(rows),
                    u32(C),  0.f,         word(dy), word(dgamma), word(dbeta), block_columns(rows), {}};
  dispatch(Pipeline::layer_norm_backward, p, {row_groups(rows)});
  dispatch_1d(Pipeline::layer_norm_backward_params, p, column_block_invocations(C, p.cw), {block_walk(rows)});
}

}  // namespace tf::webgpu
