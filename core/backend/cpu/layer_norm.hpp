// CPU LayerNorm over rows of width C.
#pragma once
#include <cmath>
#include <cstdint>

#include "backend/cpu/simd.hpp"

namespace tf::cpu {

template <class A>
void layer_norm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                        int64_t rows, int64_t C, float eps) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * C;
    float mu = 0;
    for (int64_t c = 0; c < C; ++c) mu += xr[c];
    mu /= static_cast<float>(C);
    float var = 0;
    for (int64_t c = 0; c < C; ++c) var += (xr[c] - mu) * (xr[c] - mu);
    var /= static_cast<float>(C);
    float rs = 1.f / std::sqrt(var + eps);
    for (int64_t c = 0; c < C; ++c) y[r * C + c] = (xr[c] - mu) * rs * gamma[c] + beta[c];
    mean[r] = mu;
    rstd[r] = rs;
  }
}

template <class A>
void layer_norm_backward(const float* dy, const float* x, const float* gamma, const float* mean, const float* rstd,
                         float* dx, float* dgamma, float* dbeta, int64_t rows, int64_t C) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * C;
    const float* gr = dy + r * C;
    float s1 = 0, s2 = 0;
    for (int64_t c = 0; c < C; ++c) {
      float xhat = (xr[c] - mean[r]) * rstd[r], dxhat = gr[c] * gamma[c];
      s1 += dxhat;
      s2 += dxhat * xhat;
      dgamma[c] += gr[c] * xhat;
      dbeta[c] += gr[c];
    }
    for (int64_t c = 0; c < C; ++c) {
      float xhat = (xr[c] - mean[r]) * rstd[r], dxhat = gr[c] * gamma[c];
      dx[r * C + c] = rstd[r] * (dxhat - s1 / static_cast<float>(C) - xhat * s2 / static_cast<float>(C));
    }
  }
}

}  // namespace tf::cpu
