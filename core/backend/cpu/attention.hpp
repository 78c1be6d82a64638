// CPU fused attention, one batch-head pair at a time, allocation-free. Products over keys (q.k scores, and
// dO.v in the backward pass) run on a transposed tile of the keys [dims, kKeyTile] in a thread-local
// scratch, so a query row's dot products with a whole tile of keys are plain vertical FMAs with no
// horizontal sums. The weights rows hold the scores while the masked softmax runs over them. Weighted sums
// of rows (out = w V, dq = dS K, dk = dS^T Q, dv = W^T dO) accumulate over D in registers, keys (or
// queries) inner. Causal rows and tiles stop at the last visible key. The backward pass works on blocks of
// kQueryTile queries x kKeyTile keys; sum_j w_j dW_j comes from dO . (w V), recomputed per query, so no
// block needs a whole row of dW.
#pragma once
#include <cstdint>
#include <limits>
#include <utility>

#include "backend/cpu/parallel.hpp"
#include "backend/cpu/softmax.hpp"
#include "backend/kernels.hpp"

namespace tf::cpu {

constexpr int64_t kKeyTile = 64;    // keys per transposed tile (a multiple of every register width)
constexpr int64_t kDimChunk = 64;   // head dims per transposed tile
constexpr int64_t kQueryTile = 64;  // queries per backward block

// [kDimChunk, kKeyTile] transposed keys or values, then the backward block's dS [kQueryTile, kKeyTile] and
// its kQueryTile values of sum_j w_j dW_j. One per thread and instruction set.
template <class A>
float* attention_scratch() {
  alignas(64) static thread_local float buf[kDimChunk * kKeyTile + kQueryTile * kKeyTile + kQueryTile];
  return buf;
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

// tile[d * kKeyTile + t] = rows[t * stride + d] for d < dc, t < nk; zero up to the next whole register.
template <class A>
void transpose_tile(const float* rows, int64_t stride, int64_t nk, int64_t dc, float* tile) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  int64_t padded = (nk + W - 1) / W * W;
  for (int64_t t = 0; t < nk; ++t)
    for (int64_t d = 0; d < dc; ++d) tile[d * kKeyTile + t] = rows[t * stride + d];
  for (int64_t d = 0; d < dc; ++d) fill_row<A>(tile + d * kKeyTile + nk, padded - nk, 0.f);
}

// out[t] (+)= sum over d < dc of x[d] * tile[d * kKeyTile + t], for t < n (n > (R - 1) * lanes): R registers.
template <class A, int R>
void tile_dots_block(const float* x, int64_t dc, const float* tile, int64_t n, float* out, bool first) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  batch<A> acc[R];
  for (int r = 0; r < R; ++r)
    acc[r] = first ? batch<A>(0.f) : load_upto<A>(out + r * W, min64<A>(W, n - r * W), 0.f);
  for (int64_t d = 0; d < dc; ++d) {
    batch<A> xv(x[d]);
    const float* row = tile + d * kKeyTile;
    for (int r = 0; r < R; ++r) acc[r] = fmadd<A>(xv, batch<A>::load_aligned(row + r * W), acc[r]);
  }
  for (int r = 0; r < R; ++r) store_upto<A>(out + r * W, min64<A>(W, n - r * W), acc[r]);
}

// out[t] (+)= x . column t of the tile, for t < n; `first` starts from zero instead of out.
template <class A>
void tile_dots(const float* x, int64_t dc, const float* tile, int64_t n, float* out, bool first) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  for (int64_t t = 0; t < n; t += 4 * W) {
    int64_t rest = n - t;
    switch (rest > 3 * W ? 4 : rest > 2 * W ? 3 : rest > W ? 2 : 1) {
      case 4:
        tile_dots_block<A, 4>(x, dc, tile + t, rest, out + t, first);
        break;
      case 3:
        tile_dots_block<A, 3>(x, dc, tile + t, rest, out + t, first);
        break;
      case 2:
        tile_dots_block<A, 2>(x, dc, tile + t, rest, out + t, first);
        break;
      default:
        tile_dots_block<A, 1>(x, dc, tile + t, rest, out + t, first);
        break;
    }
  }
}

// Accumulator sets of weighted_rows_block: two take alternate rows natively, so two FMA chains are in
// flight; in wasm (no FMA, 15 xmm registers) the second set made V8 spill accumulators to the stack, and
// one set took attention from 49 to 40 ms per diffusion story step (Node 20, 1 thread).
template <class A>
constexpr int kWeightedRowsChains = batch<A>::size == 4 ? 1 : 2;

// out[0, D) (+)= sum over t < n of w[t * w_stride] * rows[t * stride + (0, D)] for D <= R lanes, the last
// register holding m_last lanes. kWeightedRowsChains accumulator sets take alternate rows.
// With keep, rows whose keep[t] is 0 are skipped: a padded value never reaches the output, not even as
// 0 * NaN.
template <class A, int R>
void weighted_rows_block(const float* w, int64_t w_stride, const float* keep, int64_t n, const float* rows,
                         int64_t stride, int64_t m_last, float* out, bool accumulate) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  constexpr int S = kWeightedRowsChains<A>;
  batch<A> acc[S][R];
  for (int r = 0; r < R; ++r) {
    int64_t m = r == R - 1 ? m_last : W;
    acc[0][r] = accumulate ? load_upto<A>(out + r * W, m, 0.f) : batch<A>(0.f);
    for (int c = 1; c < S; ++c) acc[c][r] = batch<A>(0.f);
  }
  auto add = [&](batch<A>* a, int64_t t) {
    batch<A> wt(w[t * w_stride]);
    const float* row = rows + t * stride;
    for (int r = 0; r < R - 1; ++r) a[r] = fmadd<A>(wt, batch<A>::load_unaligned(row + r * W), a[r]);
    a[R - 1] = fmadd<A>(wt, load_upto<A>(row + (R - 1) * W, m_last, 0.f), a[R - 1]);
  };
  int64_t t = 0;
  if (keep) {
    for (int chain = 0; t < n; ++t)
      if (keep[t] != 0.f) add(acc[chain = (chain + 1) % S], t);
  } else {
    for (; t + S <= n; t += S)
      for (int c = 0; c < S; ++c) add(acc[c], t + c);
    for (; t < n; ++t) add(acc[0], t);
  }
  for (int r = 0; r < R; ++r) {
    batch<A> sum = acc[0][r];
    for (int c = 1; c < S; ++c) sum += acc[c][r];
    store_upto<A>(out + r * W, r == R - 1 ? m_last : W, sum);
  }
}

// The same over any D, in blocks of up to four registers.
template <class A>
void weighted_rows(const float* w, int64_t w_stride, const float* keep, int64_t n, const float* rows,
                   int64_t stride, int64_t D, float* out, bool accumulate) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  for (int64_t d = 0; d < D; d += 4 * W) {
    int64_t width = min64<A>(4 * W, D - d), regs = (width + W - 1) / W, m_last = width - (regs - 1) * W;
    const float* rd = rows + d;
    switch (regs) {
      case 4:
        weighted_rows_block<A, 4>(w, w_stride, keep, n, rd, stride, m_last, out + d, accumulate);
        break;
      case 3:
        weighted_rows_block<A, 3>(w, w_stride, keep, n, rd, stride, m_last, out + d, accumulate);
        break;
      case 2:
        weighted_rows_block<A, 2>(w, w_stride, keep, n, rd, stride, m_last, out + d, accumulate);
        break;
      default:
        weighted_rows_block<A, 1>(w, w_stride, keep, n, rd, stride, m_last, out + d, accumulate);
        break;
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

// Turns the masked scores w[0, L) into weights over the whole row w[0, Tk) and writes the output row o.
template <class A>
void softmax_row_out(const AttentionArgs& a, float mx, int64_t L, const float* keep, const float* vb,
                     float* w, float* o) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  const float inf = std::numeric_limits<float>::infinity();
  if (!(mx < inf)) {  // NaN score, or +inf (inf - inf): the row is NaN, as in the reference
    fill_row<A>(w, a.Tk, std::numeric_limits<float>::quiet_NaN());
    fill_row<A>(o, a.D, std::numeric_limits<float>::quiet_NaN());
    return;
  }
  if (mx == -inf) {  // no visible key
    fill_row<A>(w, a.Tk, 0.f);
    fill_row<A>(o, a.D, 0.f);
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
  weighted_rows<A>(w, 1, keep, L, vb, a.v_row, a.D, o, false);
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

// Raw scores q_i . k_j into the weights rows (keys j < L_i), one transposed key tile at a time.
template <class A>
void raw_scores(const AttentionArgs& a, const HeadRows& r, float* tile) {
  int64_t last = visible_keys<A>(a, a.Tq - 1);
  for (int64_t j0 = 0; j0 < last; j0 += kKeyTile) {
    int64_t nk = min64<A>(kKeyTile, a.Tk - j0);
    for (int64_t d0 = 0; d0 < a.D; d0 += kDimChunk) {
      int64_t dc = min64<A>(kDimChunk, a.D - d0);
      transpose_tile<A>(r.k + j0 * a.k_row + d0, a.k_row, nk, dc, tile);
      for (int64_t i = 0; i < a.Tq; ++i) {
        int64_t L = visible_keys<A>(a, i);
        if (L > j0)
          tile_dots<A>(r.q + i * a.q_row + d0, dc, tile, min64<A>(nk, L - j0), r.w + i * a.Tk + j0, d0 == 0);
      }
    }
  }
}

template <class A>
void attention_forward_heads(const AttentionArgs& a, const float* q, const float* k, const float* v,
                             float* out, float* weights, int64_t bh0, int64_t bh1) {
  float* tile = attention_scratch<A>();
  for (int64_t bh = bh0; bh < bh1; ++bh) {
    HeadRows r = head_rows<A>(a, bh, q, k, v, weights);
    raw_scores<A>(a, r, tile);
    int64_t b = bh / a.heads, h = bh % a.heads;
    for (int64_t i = 0; i < a.Tq; ++i) {
      int64_t L = visible_keys<A>(a, i);
      float* w = r.w + i * a.Tk;
      float mx = mask_and_max<A>(a, r.keep, L, w);
      softmax_row_out<A>(a, mx, L, r.keep, r.v, w, out + (b * a.Tq + i) * a.out_row + h * a.D);
    }
  }
}

// dO_i . (sum over j < L of w_j v_j): the softmax backward's sum_j w_j dW_j without a row of dW.
template <class A>
float weighted_dot(const AttentionArgs& a, const float* w, int64_t L, const float* vb, const float* go) {
  constexpr int64_t W = static_cast<int64_t>(batch<A>::size);
  alignas(64) float o[4 * W];
  float total = 0.f;
  for (int64_t d = 0; d < a.D; d += 4 * W) {
    int64_t width = min64<A>(4 * W, a.D - d);
    weighted_rows<A>(w, 1, nullptr, L, vb + d, a.v_row, width, o, false);
    total += row_dot<A>(o, go + d, width);
  }
  return total;
}

// The backward block of queries [i0, i0 + ni) and keys [j0, j0 + nk): dW = dO V^T into ds, then
// dS = w (dW - wdw) scale, then dq += dS K, dk += dS^T Q, dv += W^T dO.
template <class A>
void backward_block(const AttentionArgs& a, const HeadRows& r, const float* gb, int64_t i0, int64_t ni,
                    int64_t j0, int64_t nk, float* tile, float* ds, const float* wdw, float* dqb, float* dkb,
                    float* dvb) {
  for (int64_t d0 = 0; d0 < a.D; d0 += kDimChunk) {
    int64_t dc = min64<A>(kDimChunk, a.D - d0);
    transpose_tile<A>(r.v + j0 * a.v_row + d0, a.v_row, nk, dc, tile);
    for (int64_t i = 0; i < ni; ++i) {
      int64_t n = min64<A>(nk, visible_keys<A>(a, i0 + i) - j0);
      if (n > 0) tile_dots<A>(gb + (i0 + i) * a.out_row + d0, dc, tile, n, ds + i * kKeyTile, d0 == 0);
    }
  }
  for (int64_t i = 0; i < ni; ++i) {
    int64_t n = visible_keys<A>(a, i0 + i) - j0;
    n = n < 0 ? 0 : min64<A>(n, nk);
    const float* w = r.w + (i0 + i) * a.Tk + j0;
    float* row = ds + i * kKeyTile;
    for (int64_t t = 0; t < n; ++t) row[t] = w[t] * (row[t] - wdw[i]) * a.scale;
    fill_row<A>(row + n, nk - n, 0.f);
    weighted_rows<A>(row, 1, nullptr, n, r.k + j0 * a.k_row, a.k_row, a.D, dqb + (i0 + i) * a.q_row, true);
  }
  for (int64_t t = 0; t < nk; ++t) {
    int64_t j = j0 + t;
    // Under the causal mask, query i sees key j from i = j - q_offset on.
    int64_t first = a.causal ? j - a.q_offset - i0 : 0;
    first = first < 0 ? 0 : first;
    if (first >= ni) continue;
    weighted_rows<A>(ds + first * kKeyTile + t, kKeyTile, nullptr, ni - first, r.q + (i0 + first) * a.q_row,
                     a.q_row, a.D, dkb + j * a.k_row, true);
    weighted_rows<A>(r.w + (i0 + first) * a.Tk + j, a.Tk, nullptr, ni - first, gb + (i0 + first) * a.out_row,
                     a.out_row, a.D, dvb + j * a.v_row, true);
  }
}

template <class A>
void attention_backward_heads(const AttentionArgs& a, const float* q, const float* k, const float* v,
                              const float* weights, const float* dout, float* dq, float* dk, float* dv,
                              int64_t bh0, int64_t bh1) {
  float* tile = attention_scratch<A>();
  float* ds = tile + kDimChunk * kKeyTile;
  float* wdw = ds + kQueryTile * kKeyTile;
  for (int64_t bh = bh0; bh < bh1; ++bh) {
    HeadRows r = head_rows<A>(a, bh, q, k, v, weights);
    int64_t b = bh / a.heads, h = bh % a.heads;
    const float* gb = dout + b * a.Tq * a.out_row + h * a.D;
    float* dqb = dq + b * a.Tq * a.q_row + h * a.D;
    float* dkb = dk + b * a.Tk * a.k_row + h * a.D;
    float* dvb = dv + b * a.Tk * a.v_row + h * a.D;
    for (int64_t i = 0; i < a.Tq; ++i) fill_row<A>(dqb + i * a.q_row, a.D, 0.f);
    for (int64_t j = 0; j < a.Tk; ++j) {
      fill_row<A>(dkb + j * a.k_row, a.D, 0.f);
      fill_row<A>(dvb + j * a.v_row, a.D, 0.f);
    }
    for (int64_t i0 = 0; i0 < a.Tq; i0 += kQueryTile) {
      int64_t ni = min64<A>(kQueryTile, a.Tq - i0);
      for (int64_t i = 0; i < ni; ++i)
        wdw[i] = weighted_dot<A>(a, r.w + (i0 + i) * a.Tk, visible_keys<A>(a, i0 + i), r.v,
                                 gb + (i0 + i) * a.out_row);
      int64_t last = visible_keys<A>(a, i0 + ni - 1);
      for (int64_t j0 = 0; j0 < last; j0 += kKeyTile)
        backward_block<A>(a, r, gb, i0, ni, j0, min64<A>(kKeyTile, last - j0), tile, ds, wdw, dqb, dkb, dvb);
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
