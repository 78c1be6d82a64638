// CPU fused attention, one batch-head pair at a time on one thread, allocation-free once warm. Its five
// products (scores Q K^T, out = W V; backward dW = dO V^T, dQ = dS K, dK = dS^T Q, dV = W^T dO) are small
// GEMMs on the packed micro-kernel of gemm.hpp (gemm_one), which keeps a register tile of outputs where a
// row at a time reloaded an operand for every multiply-add: per diffusion story step, 1 thread, attention
// went from 18.8 to 12.9 ms natively (AVX2) and from 40 to 25 ms in wasm (Node 20). Under the causal mask
// a product covers the keys some query sees and the softmax rows mask the rest. The backward pass's
// sum_j w_j dW_j is a row dot of dW, which is at hand.
#pragma once
#include <cstdint>
#include <limits>

#include "backend/cpu/gemm.hpp"
#include "backend/cpu/parallel.hpp"
#include "backend/cpu/reduce.hpp"
#include "backend/cpu/softmax.hpp"
#include "backend/kernels.hpp"

namespace tf::cpu {

// The backward pass's dW, then dS, [Tq, keys seen]: one per thread and instruction set, grow-only (not
// gemm_scratch, which the products pack into).
template <class A>
float* attention_scratch(size_t floats) {
  static thread_local GemmScratch<A> scratch;
  return scratch.get(floats);
}

template <class A>
int64_t min64(int64_t a, int64_t b) {
  return a < b ? a : b;
}

// How many keys query i may see: all of them, or under the causal mask those up to i + q_offset.
template <class A>
int64_t visible_keys(const AttentionArgs& a, int64_t i) {
  if (!a.causal) return a.Tk;
  int64_t L = i + a.q_offset + 1;
  return L < 0 ? 0 : min64<A>(L, a.Tk);
}

template <class A>
void fill_row(float* p, int64_t n, float value) {
  for (int64_t j = 0; j < n; ++j) p[j] = value;
}

// o[0, D) = sum over the visible keys j < L (keep[j] != 0) of w[j] v_j, hidden keys skipped outright: the
// output for a pair with a hidden value that is not finite, which W V as one product would spread as 0 * NaN.
// One fused multiply-add per key in key order, as the GEMM micro-kernel accumulates, so a row comes out
// bitwise the same on either path (axpy_span rounds twice; a test changes padded values to NaN and
// compares).
template <class A>
void visible_row_output(const AttentionArgs& a, const float* w, int64_t L, const float* keep, const float* v,
                        float* o) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  fill_row<A>(o, a.D, 0.f);
  for (int64_t j = 0; j < L; ++j) {
    if (keep && keep[j] == 0.f) continue;
    batch<A> wj(w[j]);
    for (int64_t d = 0; d < a.D; d += W) {
      int64_t n = min64<A>(W, a.D - d);
      store_upto<A>(o + d, n,
                    fmadd<A>(wj, load_upto<A>(v + j * a.v_row + d, n, 0.f), load_upto<A>(o + d, n, 0.f)));
    }
  }
}

// Scales the raw scores w[0, L), masks padded keys to -inf and returns the row max: -inf when no key is
// visible, NaN when a visible score is NaN or every visible score is -inf (exp(-inf - -inf), as in the
// reference). NaN is tested with isnan: xsimd's != is an ordered compare on AVX (false for NaN).
template <class A>
float mask_and_max(const AttentionArgs& a, const float* keep, int64_t L, float* w) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  const float inf = std::numeric_limits<float>::infinity();
  batch<A> scale(a.scale), ninf(-inf), m(ninf), zero(0.f), idx = lane_index<A>();
  auto bad = xsimd::isnan(m), seen = bad;
  for (int64_t j0 = 0; j0 < L; j0 += W) {
    int64_t n = min64<A>(W, L - j0);
    auto visible = idx < batch<A>(static_cast<float>(n));
    if (keep) visible = visible && !(load_upto<A>(keep + j0, n, 0.f) == zero);
    batch<A> s = xsimd::select(visible, load_upto<A>(w + j0, n, 0.f) * scale, ninf);
    bad = bad || xsimd::isnan(s);
    seen = seen || visible;
    m = xsimd::max(m, s);
    store_upto<A>(w + j0, n, s);
  }
  float mx = lane_max<A>(m);
  return xsimd::any(bad) || (mx == -inf && xsimd::any(seen)) ? std::numeric_limits<float>::quiet_NaN() : mx;
}

// Turns the masked scores w[0, L) into weights over the whole row w[0, Tk): NaN for a NaN score or +inf
// (inf - inf), as in the reference; zeros when no key is visible.
template <class A>
void softmax_row(const AttentionArgs& a, float mx, int64_t L, float* w) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  const float inf = std::numeric_limits<float>::infinity();
  if (!(mx < inf) || mx == -inf) {
    fill_row<A>(w, a.Tk, mx == -inf ? 0.f : std::numeric_limits<float>::quiet_NaN());
    return;
  }
  batch<A> shift(mx), total(0.f);
  for (int64_t j = 0; j < L; j += W) {
    int64_t n = min64<A>(W, L - j);
    batch<A> e = xsimd::exp(load_upto<A>(w + j, n, -inf) - shift);
    total += e;
    store_upto<A>(w + j, n, e);
  }
  batch<A> sum(xsimd::hadd(total));
  for (int64_t j = 0; j < L; j += W) {
    int64_t n = min64<A>(W, L - j);
    store_upto<A>(w + j, n, load_upto<A>(w + j, n, 0.f) / sum);
  }
  fill_row<A>(w + L, a.Tk - L, 0.f);
}

// Where the operands of batch-head pair bh start.
struct HeadRows {
  const float *q, *k, *v, *keep;
  float* w;
};

template <class A>
HeadRows head_rows(const AttentionArgs& a, int64_t bh, const float* q, const float* k, const float* v,
                   const float* w) {
  int64_t b = bh / a.heads, h = bh % a.heads;
  return {q + b * a.Tq * a.q_row + h * a.D, k + b * a.Tk * a.k_row + h * a.D,
          v + b * a.Tk * a.v_row + h * a.D, a.key_keep ? a.key_keep + b * a.Tk : nullptr,
          const_cast<float*>(w) + bh * a.Tq * a.Tk};
}

// C = op(A) op(B), M x N over K, on this thread; `it` gives the operands' strides (gemm.hpp's GemmItem).
template <class A>
void product(int64_t M, int64_t N, int64_t K, const GemmItem& it) {
  GemmArgs g;
  g.M = static_cast<int>(M);
  g.N = static_cast<int>(N);
  g.K = static_cast<int>(K);
  gemm_one<A>(g, it);
}

// Whether every value row among the first n that some query must not see (causal or padded) is finite.
// Then W V as one product is the sum over visible keys: a hidden key's weight is 0, and 0 * v = 0.
template <class A>
bool hidden_values_finite(const AttentionArgs& a, const HeadRows& r, int64_t n) {
  int64_t first_hidden = visible_keys<A>(a, 0);  // every query sees the keys before it
  for (int64_t j = 0; j < n; ++j) {
    bool hidden = j >= first_hidden || (r.keep && r.keep[j] == 0.f);
    if (hidden && !all_finite<A>(r.v + j * a.v_row, static_cast<size_t>(a.D))) return false;
  }
  return true;
}

template <class A>
void attention_forward_heads(const AttentionArgs& a, const float* q, const float* k, const float* v,
                             float* out, float* weights, int64_t bh0, int64_t bh1) {
  for (int64_t bh = bh0; bh < bh1; ++bh) {
    HeadRows r = head_rows<A>(a, bh, q, k, v, weights);
    int64_t b = bh / a.heads, h = bh % a.heads;
    float* ob = out + b * a.Tq * a.out_row + h * a.D;
    int64_t seen = visible_keys<A>(a, a.Tq - 1);  // keys no query sees are never read
    product<A>(a.Tq, seen, a.D, {r.q, a.q_row, 1, r.k, 1, a.k_row, r.w, a.Tk});  // raw scores q_i . k_j
    bool one_product = hidden_values_finite<A>(a, r, seen);
    for (int64_t i = 0; i < a.Tq; ++i) {
      int64_t L = visible_keys<A>(a, i);
      float* w = r.w + i * a.Tk;
      softmax_row<A>(a, mask_and_max<A>(a, r.keep, L, w), L, w);
      if (!one_product) visible_row_output<A>(a, w, L, r.keep, r.v, ob + i * a.out_row);
    }
    if (one_product) product<A>(a.Tq, a.D, seen, {r.w, a.Tk, 1, r.v, a.v_row, 1, ob, a.out_row});
  }
}

// dS = W (dW - sum_j w_j dW_j) scale, row by row over the keys each query sees, in place of dW [Tq, seen].
template <class A>
void softmax_backward_rows(const AttentionArgs& a, const float* weights, int64_t seen, float* ds) {
  for (int64_t i = 0; i < a.Tq; ++i) {
    int64_t L = visible_keys<A>(a, i);
    const float* w = weights + i * a.Tk;
    float* row = ds + i * seen;
    float wdw = row_dot<A>(w, row, L);
    for (int64_t j = 0; j < L; ++j) row[j] = w[j] * (row[j] - wdw) * a.scale;
    fill_row<A>(row + L, seen - L, 0.f);
  }
}

template <class A>
void attention_backward_heads(const AttentionArgs& a, const float* q, const float* k, const float* v,
                              const float* weights, const float* dout, float* dq, float* dk, float* dv,
                              int64_t bh0, int64_t bh1) {
  for (int64_t bh = bh0; bh < bh1; ++bh) {
    HeadRows r = head_rows<A>(a, bh, q, k, v, weights);
    int64_t b = bh / a.heads, h = bh % a.heads;
    const float* gb = dout + b * a.Tq * a.out_row + h * a.D;
    float* dqb = dq + b * a.Tq * a.q_row + h * a.D;
    float* dkb = dk + b * a.Tk * a.k_row + h * a.D;
    float* dvb = dv + b * a.Tk * a.v_row + h * a.D;
    int64_t seen = visible_keys<A>(a, a.Tq - 1);
    float* ds = attention_scratch<A>(static_cast<size_t>(a.Tq * seen));
    product<A>(a.Tq, seen, a.D, {gb, a.out_row, 1, r.v, 1, a.v_row, ds, seen});  // dW = dO V^T
    softmax_backward_rows<A>(a, r.w, seen, ds);
    product<A>(a.Tq, a.D, seen, {ds, seen, 1, r.k, a.k_row, 1, dqb, a.q_row});    // dq = dS K
    product<A>(seen, a.D, a.Tq, {ds, 1, seen, r.q, a.q_row, 1, dkb, a.k_row});    // dk = dS^T Q
    product<A>(seen, a.D, a.Tq, {r.w, 1, a.Tk, gb, a.out_row, 1, dvb, a.v_row});  // dv = W^T dO
    for (int64_t j = seen; j < a.Tk; ++j) {
      fill_row<A>(dkb + j * a.k_row, a.D, 0.f);
      fill_row<A>(dvb + j * a.v_row, a.D, 0.f);
    }
  }
}

// ---- the kernels of kernels.hpp, spread over the thread pool ----

// One task per batch-head pair at least: pairs are independent.
template <class A>
void attention_forward(const AttentionArgs& a, const float* q, const float* k, const float* v, float* out,
                       float* weights) {
  for_ranges(static_cast<int64_t>(a.B) * a.heads, 1,
             [&](int64_t b0, int64_t b1) { attention_forward_heads<A>(a, q, k, v, out, weights, b0, b1); });
}

template <class A>
void attention_backward(const AttentionArgs& a, const float* q, const float* k, const float* v,
                        const float* weights, const float* dout, float* dq, float* dk, float* dv) {
  for_ranges(static_cast<int64_t>(a.B) * a.heads, 1, [&](int64_t b0, int64_t b1) {
    attention_backward_heads<A>(a, q, k, v, weights, dout, dq, dk, dv, b0, b1);
  });
}

}  // namespace tf::cpu
