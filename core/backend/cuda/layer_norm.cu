// LayerNorm over the last dim C: one warp per row (mean and variance in two passes over the row, as the
// reference does), and in the backward pass the column sums dgamma and dbeta through the deterministic
// column reduction instead of atomics.
#include "backend/cuda/column_sums.cuh"
#include "backend/cuda/kernels.cuh"
#include "backend/cuda/warp_reduce.cuh"

namespace tf::cuda {

namespace {

constexpr int kRowsPerBlock = 8;  // one warp per row

__device__ int64_t warp_row() { return static_cast<int64_t>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32; }

__global__ void layer_norm_forward_kernel(const float* x, const float* gamma, const float* beta, float* y,
                                          float* mean, float* rstd, int64_t rows, int64_t C, float eps) {
  int64_t r = warp_row();
  if (r >= rows) return;
  int lane = threadIdx.x % 32;
  const float* xr = x + r * C;
  float s = 0;
  for (int64_t c = lane; c < C; c += 32) s += xr[c];
  float mu = warp_sum(s) / static_cast<float>(C);
  float q = 0;
  for (int64_t c = lane; c < C; c += 32) q += (xr[c] - mu) * (xr[c] - mu);
  float rs = 1.f / sqrtf(warp_sum(q) / static_cast<float>(C) + eps);
  float* yr = y + r * C;
  for (int64_t c = lane; c < C; c += 32) yr[c] = (xr[c] - mu) * rs * gamma[c] + beta[c];
  if (lane == 0) {
    mean[r] = mu;
    rstd[r] = rs;
  }
}

// dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) with dxhat = dy * gamma.
__global__ void layer_norm_dx_kernel(const float* dy, const float* x, const float* gamma, const float* mean,
                                     const float* rstd, float* dx, int64_t rows, int64_t C) {
  int64_t r = warp_row();
  if (r >= rows) return;
  int lane = threadIdx.x % 32;
  const float *xr = x + r * C, *gr = dy + r * C;
  float mu = mean[r], rs = rstd[r];
  float sum_dxhat = 0, sum_dxhat_xhat = 0;
  for (int64_t c = lane; c < C; c += 32) {
    float dxhat = gr[c] * gamma[c];
    sum_dxhat += dxhat;
    sum_dxhat_xhat += dxhat * (xr[c] - mu) * rs;
  }
  float a = warp_sum(sum_dxhat) / static_cast<float>(C), b = warp_sum(sum_dxhat_xhat) / static_cast<float>(C);
  for (int64_t c = lane; c < C; c += 32) dx[r * C + c] = rs * (gr[c] * gamma[c] - a - (xr[c] - mu) * rs * b);
}

// Contributions of (r, c) to dgamma (dy * xhat) and dbeta (dy).
struct NormParamTerm {
  const float *dy, *x, *mean, *rstd;
  int64_t C;
  __device__ void operator()(int64_t r, int64_t c, double* s) const {
    float g = dy[r * C + c];
    s[0] += static_cast<double>(g) * ((x[r * C + c] - mean[r]) * rstd[r]);
    s[1] += g;
  }
};

unsigned row_blocks(int64_t rows) {
  return static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
}

}  // namespace

void layer_norm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                        float* rstd, int64_t rows, int64_t C, float eps) {
  if (rows <= 0 || C <= 0) return;
  layer_norm_forward_kernel<<<row_blocks(rows), kRowsPerBlock * 32>>>(x, gamma, beta, y, mean, rstd, rows, C,
                                                                      eps);
  TF_CUDA_LAUNCHED("layer_norm_forward_kernel");
}

void layer_norm_backward(const float* dy, const float* x, const float* gamma, const float* mean,
                         const float* rstd, float* dx, float* dgamma, float* dbeta, int64_t rows, int64_t C) {
  if (rows <= 0 || C <= 0) return;
  layer_norm_dx_kernel<<<row_blocks(rows), kRowsPerBlock * 32>>>(dy, x, gamma, mean, rstd, dx, rows, C);
  TF_CUDA_LAUNCHED("layer_norm_dx_kernel");
  sum_columns<2>(NormParamTerm{dy, x, mean, rstd, C}, rows, C, ColumnOutputs<2>{{dgamma, dbeta}}, true);
}

}  // namespace tf::cuda
