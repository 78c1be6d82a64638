// Reference LayerNorm, written with xtensor over each row: y = (x - mean) / sqrt(var + eps) * gamma + beta.
#include <cmath>

#include <xtensor/xmath.hpp>
#include <xtensor/xview.hpp>

#include "backend/reference/kernels.hpp"
#include "backend/reference/xt.hpp"

namespace tf::ref {

void layer_norm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                        float* rstd, int64_t rows, int64_t C, float eps) {
  auto X = view2d(x, rows, C);
  auto Y = view2d(y, rows, C);
  auto G = view2d(gamma, 1, C);
  auto Bt = view2d(beta, 1, C);
  for (int64_t r = 0; r < rows; ++r) {
    auto row = xt::view(X, r, xt::all());
    double mu = xt::mean(xt::cast<double>(row))();
    double var = xt::mean(xt::square(xt::cast<double>(row) - mu))();
    double rs = 1.0 / std::sqrt(var + eps);
    xt::view(Y, r, xt::all()) = xt::cast<float>(
        (xt::cast<double>(row) - mu) * rs * xt::view(G, 0, xt::all()) + xt::view(Bt, 0, xt::all()));
    mean[r] = static_cast<float>(mu);
    rstd[r] = static_cast<float>(rs);
  }
}

void layer_norm_backward(const float* dy, const float* x, const float* gamma, const float* mean,
                         const float* rstd, float* dx, float* dgamma, float* dbeta, int64_t rows, int64_t C) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * C;
    const float* gr = dy + r * C;
    double sum_dxhat = 0, sum_dxhat_xhat = 0;
    for (int64_t c = 0; c < C; ++c) {
      double xhat = (xr[c] - mean[r]) * static_cast<double>(rstd[r]);
      double dxhat = static_cast<double>(gr[c]) * gamma[c];
      sum_dxhat += dxhat;
      sum_dxhat_xhat += dxhat * xhat;
      dgamma[c] += static_cast<float>(gr[c] * xhat);
      dbeta[c] += gr[c];
    }
    for (int64_t c = 0; c < C; ++c) {
      double xhat = (xr[c] - mean[r]) * static_cast<double>(rstd[r]);
      double dxhat = static_cast<double>(gr[c]) * gamma[c];
      dx[r * C + c] = static_cast<float>(rstd[r] * (dxhat - sum_dxhat / C - xhat * sum_dxhat_xhat / C));
    }
  }
}

}  // namespace tf::ref
