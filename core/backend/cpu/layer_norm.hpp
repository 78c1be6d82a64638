// CPU LayerNorm over rows of width C: two passes for the statistics (mean, then the biased variance of
// x - mean, which keeps precision when the mean is large), one for the output. Tail lanes are filled so that
// they add nothing: x with the mean itself, dy and gamma with 0.
#pragma once
#include <cmath>
#include <cstdint>

#include "backend/cpu/parallel.hpp"
#include "backend/cpu/simd_tail.hpp"

namespace tf::cpu {

template <class A>
void layer_norm_row(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                    int64_t C, float eps) {
  float mu = row_sum<A>(x, C, 0.f, [](const batch<A>& v) { return v; }) / static_cast<float>(C);
  batch<A> m(mu);
  float var =
      row_sum<A>(x, C, mu, [m](const batch<A>& v) { return (v - m) * (v - m); }) / static_cast<float>(C);
  float rs = 1.f / std::sqrt(var + eps);
  batch<A> r(rs);
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  int64_t c = 0;
  for (; c + W <= C; c += W) {
    batch<A> xhat = (batch<A>::load_unaligned(x + c) - m) * r;
    fmadd<A>(xhat, batch<A>::load_unaligned(gamma + c), batch<A>::load_unaligned(beta + c))
        .store_unaligned(y + c);
  }
  if (c < C) {
    size_t n = static_cast<size_t>(C - c);
    batch<A> xhat = (load_tail<A>(x + c, n, mu) - m) * r;
    store_tail<A>(y + c, n, fmadd<A>(xhat, load_tail<A>(gamma + c, n, 0.f), load_tail<A>(beta + c, n, 0.f)));
  }
  *mean = mu;
  *rstd = rs;
}

template <class A>
void layer_norm_forward_rows(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                             float* rstd, int64_t rows, int64_t C, float eps) {
  for (int64_t r = 0; r < rows; ++r)
    layer_norm_row<A>(x + r * C, gamma, beta, y + r * C, mean + r, rstd + r, C, eps);
}

// One row of the backward pass. Pass 1 accumulates dgamma, dbeta and the two row sums of dxhat = dy * gamma;
// pass 2 writes dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)).
template <class A>
void layer_norm_backward_row(const float* dy, const float* x, const float* gamma, float mu, float rs,
                             float* dx, float* dgamma, float* dbeta, int64_t C) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  batch<A> m(mu), r(rs), s1(0.f), s2(0.f);
  int64_t c = 0;
  for (; c + W <= C; c += W) {
    batch<A> g = batch<A>::load_unaligned(dy + c), xhat = (batch<A>::load_unaligned(x + c) - m) * r;
    batch<A> dxhat = g * batch<A>::load_unaligned(gamma + c);
    s1 += dxhat;
    s2 = fmadd<A>(dxhat, xhat, s2);
    fmadd<A>(g, xhat, batch<A>::load_unaligned(dgamma + c)).store_unaligned(dgamma + c);
    (batch<A>::load_unaligned(dbeta + c) + g).store_unaligned(dbeta + c);
  }
  if (c < C) {
    size_t n = static_cast<size_t>(C - c);
    batch<A> g = load_tail<A>(dy + c, n, 0.f), xhat = (load_tail<A>(x + c, n, mu) - m) * r;
    batch<A> dxhat = g * load_tail<A>(gamma + c, n, 0.f);
    s1 += dxhat;
    s2 = fmadd<A>(dxhat, xhat, s2);
    store_tail<A>(dgamma + c, n, fmadd<A>(g, xhat, load_tail<A>(dgamma + c, n, 0.f)));
    store_tail<A>(dbeta + c, n, load_tail<A>(dbeta + c, n, 0.f) + g);
  }
  batch<A> mean1(xsimd::hadd(s1) / static_cast<float>(C)), mean2(xsimd::hadd(s2) / static_cast<float>(C));
  auto dx_of = [&](const batch<A>& g, const batch<A>& xv, const batch<A>& gam) {
    batch<A> xhat = (xv - m) * r;
    return r * (g * gam - mean1 - xhat * mean2);
  };
  for (c = 0; c + W <= C; c += W)
    dx_of(batch<A>::load_unaligned(dy + c), batch<A>::load_unaligned(x + c),
          batch<A>::load_unaligned(gamma + c))
        .store_unaligned(dx + c);
  if (c < C) {
    size_t n = static_cast<size_t>(C - c);
    store_tail<A>(
        dx + c, n,
        dx_of(load_tail<A>(dy + c, n, 0.f), load_tail<A>(x + c, n, mu), load_tail<A>(gamma + c, n, 0.f)));
  }
}

// dgamma and dbeta accumulate over the rows, in row order.
template <class A>
void layer_norm_backward_rows(const float* dy, const float* x, const float* gamma, const float* mean,
                              const float* rstd, float* dx, float* dgamma, float* dbeta, int64_t rows,
                              int64_t C) {
  for (int64_t r = 0; r < rows; ++r)
    layer_norm_backward_row<A>(dy + r * C, x + r * C, gamma, mean[r], rstd[r], dx + r * C, dgamma, dbeta, C);
}

// ---- the kernels of kernels.hpp, spread over the thread pool ----

template <class A>
void layer_norm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                        float* rstd, int64_t rows, int64_t C, float eps) {
  for_rows(rows, C, [&](int64_t r0, int64_t r1) {
    layer_norm_forward_rows<A>(x + r0 * C, gamma, beta, y + r0 * C, mean + r0, rstd + r0, r1 - r0, C, eps);
  });
}

// Each chunk of kNormChunk rows sums its dgamma and dbeta apart; the chunks are then added in order, so the
// result does not depend on the thread count.
template <class A>
void layer_norm_backward(const float* dy, const float* x, const float* gamma, const float* mean,
                         const float* rstd, float* dx, float* dgamma, float* dbeta, int64_t rows, int64_t C) {
  int64_t chunks = (rows + kNormChunk - 1) / kNormChunk;
  ZeroedScratch partial(static_cast<size_t>(chunks * 2 * C));
  for_chunks(chunks, [&](int64_t c) {
    int64_t r0 = c * kNormChunk, r1 = r0 + kNormChunk < rows ? r0 + kNormChunk : rows;
    float* pg = partial.get() + c * 2 * C;
    layer_norm_backward_rows<A>(dy + r0 * C, x + r0 * C, gamma, mean + r0, rstd + r0, dx + r0 * C, pg, pg + C,
                                r1 - r0, C);
  });
  for (int64_t c = 0; c < chunks; ++c) {
    axpy_span<A>(1.f, partial.get() + c * 2 * C, dgamma, static_cast<size_t>(C));
    axpy_span<A>(1.f, partial.get() + c * 2 * C + C, dbeta, static_cast<size_t>(C));
  }
}

}  // namespace tf::cpu
