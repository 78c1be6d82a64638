// CPU GEMM for one instruction set: the blocked, packed scheme (pack op(A) into MR-row panels and op(B)
// into NR-column panels per KC block, then an MR x NR register micro-kernel). Threads take rectangles of
// C, never slices of K, and K blocks start at fixed offsets, so every C element is computed the same way
// whatever the thread count. Packing buffers are grow-only and thread-local: no allocation once warm.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "backend/cpu/gemm_micro.hpp"
#include "backend/cpu/gemm_pack.hpp"
#include "backend/cpu/gemm_tile.hpp"
#include "backend/cpu/parallel.hpp"
#include "backend/cpu/simd.hpp"
#include "backend/kernels.hpp"

namespace tf::cpu {

// One batch item with the transposes folded into strides: op(A)(i, k) = a[i*a_i + k*a_k],
// op(B)(k, j) = b[k*b_k + j*b_j], C(i, j) = c[i*ldc + j].
struct GemmItem {
  const float* a;
  int64_t a_i, a_k;
  const float* b;
  int64_t b_k, b_j;
  float* c;
  int64_t ldc;
};

// A 64-byte aligned float buffer that only grows; one per thread and instruction set.
template <class A>
class GemmScratch {
 public:
  GemmScratch() = default;
  GemmScratch(const GemmScratch&) = delete;
  GemmScratch& operator=(const GemmScratch&) = delete;
  ~GemmScratch() { std::free(data_); }
  float* get(size_t floats) {
    if (floats <= size_) return data_;
    std::free(data_);
    data_ = static_cast<float*>(std::aligned_alloc(64, (floats * sizeof(float) + 63) / 64 * 64));
    if (!data_) throw std::bad_alloc();
    size_ = floats;
    return data_;
  }

 private:
  float* data_ = nullptr;
  size_t size_ = 0;
};

template <class A>
GemmScratch<A>& gemm_scratch() {
  static thread_local GemmScratch<A> scratch;
  return scratch;
}

// Splits n into ceil(n / most) near-equal blocks, each a multiple of `unit`; returns the block length.
template <class A>
int64_t gemm_block_len(int64_t n, int64_t most, int64_t unit) {
  int64_t blocks = (n + most - 1) / most;
  int64_t len = (n + blocks - 1) / blocks;
  return (len + unit - 1) / unit * unit;
}

// Where the first K block reads C's starting values: C itself, or the bias row (row stride 0). A template
// like everything here: each instruction set's copy is compiled with its own flags.
template <class A>
struct GemmIn {
  const float* p;
  int64_t ld;
  GemmIn at(int64_t i, int64_t j) const { return {p + i * ld + j, ld}; }
};

template <class A>
GemmIn<A> gemm_in(const GemmArgs& g, const float* c, int64_t ldc) {
  return g.bias ? GemmIn<A>{g.bias, 0} : GemmIn<A>{c, ldc};
}

// An MR x NR tile cut by the edge of C: run the micro-kernel on a full tile in a buffer and copy back.
template <class A>
void gemm_micro_edge(int64_t mr, int64_t nr, int64_t kc, const float* pa, const float* pb, float* c,
                     int64_t ldc, GemmIn<A> in, float alpha, float beta, GemmStore mode) {
  constexpr int MR = GemmTile<A>::MR, NR = GemmTile<A>::NV * static_cast<int>(batch<A>::size);
  alignas(64) float tile[MR * NR] = {};  // [MR, NR]
  if (mode != GemmStore::FirstNoBeta) {
    GemmIn<A> from = mode == GemmStore::First ? in : GemmIn<A>{c, ldc};
    for (int64_t r = 0; r < mr; ++r) std::memcpy(tile + r * NR, from.p + r * from.ld, nr * sizeof(float));
  }
  gemm_micro<A>(kc, pa, pb, tile, NR, tile, NR, alpha, beta, mode);
  for (int64_t r = 0; r < mr; ++r) std::memcpy(c + r * ldc, tile + r * NR, nr * sizeof(float));
}

// C[0:mc, 0:nc] from packed A (mc rows in MR panels) and packed B (nc columns in NR panels).
template <class A>
void gemm_macro(int64_t mc, int64_t nc, int64_t kc, const float* pa, const float* pb, float* c, int64_t ldc,
                GemmIn<A> in, float alpha, float beta, GemmStore mode) {
  constexpr int MR = GemmTile<A>::MR, NR = GemmTile<A>::NV * static_cast<int>(batch<A>::size);
  for (int64_t jr = 0; jr < nc; jr += NR) {
    int64_t nr = nc - jr < NR ? nc - jr : NR;
    for (int64_t ir = 0; ir < mc; ir += MR) {
      int64_t mr = mc - ir < MR ? mc - ir : MR;
      float* ct = c + ir * ldc + jr;
      GemmIn<A> it = in.at(ir, jr);
      if (mr == MR && nr == NR)
        gemm_micro<A>(kc, pa + ir * kc, pb + jr * kc, ct, ldc, it.p, it.ld, alpha, beta, mode);
      else
        gemm_micro_edge<A>(mr, nr, kc, pa + ir * kc, pb + jr * kc, ct, ldc, it, alpha, beta, mode);
    }
  }
}

// Rows [m0, m1) x columns [n0, n1) of one item's C, on the calling thread.
template <class A>
void gemm_rect(const GemmArgs& g, const GemmItem& it, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
  using T = GemmTile<A>;
  constexpr int NR = T::NV * static_cast<int>(batch<A>::size);
  static_assert(T::MC % T::MR == 0 && T::NC % NR == 0, "cache blocks must hold whole micro-tiles");
  int64_t kb = gemm_block_len<A>(g.K, T::KC, 1);
  int64_t mb = gemm_block_len<A>(m1 - m0, T::MC, T::MR);
  int64_t nb = gemm_block_len<A>(n1 - n0, T::NC, NR);
  // pa: [mb/MR, kb, MR], padded so that pb starts 64-byte aligned; pb: [nb/NR, kb, NR].
  int64_t pa_len = (mb * kb + 15) / 16 * 16;
  float* pa = gemm_scratch<A>().get(static_cast<size_t>(pa_len + nb * kb));
  float* pb = pa + pa_len;
  for (int64_t jc = n0; jc < n1; jc += nb) {
    int64_t nc = n1 - jc < nb ? n1 - jc : nb;
    for (int64_t pc = 0; pc < g.K; pc += kb) {
      int64_t kc = g.K - pc < kb ? g.K - pc : kb;
      GemmStore mode = pc > 0          ? GemmStore::Accumulate
                       : g.beta == 0.f ? GemmStore::FirstNoBeta
                                       : GemmStore::First;
      pack_panels<A, NR>(it.b + pc * it.b_k + jc * it.b_j, it.b_j, it.b_k, nc, kc, pb);
      for (int64_t ic = m0; ic < m1; ic += mb) {
        int64_t mc = m1 - ic < mb ? m1 - ic : mb;
        pack_panels<A, T::MR>(it.a + ic * it.a_i + pc * it.a_k, it.a_i, it.a_k, mc, kc, pa);
        gemm_macro<A>(mc, nc, kc, pa, pb, it.c + ic * it.ldc + jc, it.ldc,
                      gemm_in<A>(g, it.c, it.ldc).at(ic, jc), g.alpha, g.beta, mode);
      }
    }
  }
}

template <class A>
GemmItem gemm_item(const GemmArgs& g, const float* Ap, const float* Bp, float* Cp, int64_t b) {
  GemmItem it;
  it.a = Ap + b * g.stride_a;
  it.a_i = g.trans_a ? 1 : g.lda;
  it.a_k = g.trans_a ? g.lda : 1;
  it.b = Bp + b * g.stride_b;
  it.b_k = g.trans_b ? 1 : g.ldb;
  it.b_j = g.trans_b ? g.ldb : 1;
  it.c = Cp + b * g.stride_c;
  it.ldc = g.ldc;
  return it;
}

// K == 0: C = beta * C (or beta * bias) for one item (beta == 0 writes zeros without reading either).
template <class A>
void gemm_scale_item(const GemmArgs& g, float* c, int64_t ldc) {
  GemmIn<A> in = gemm_in<A>(g, c, ldc);
  for (int64_t i = 0; i < g.M; ++i, c += ldc, in = in.at(1, 0))
    for (int64_t j = 0; j < g.N; ++j) c[j] = g.beta == 0.f ? 0.f : g.beta * in.p[j];
}

// Decoding one token at a time makes products with one row (or a few): packing all of op(B) would cost
// more than the product, so up to kSmallM rows are computed straight from the operands — a dot product
// along K where op(B)'s columns are contiguous (x W^T with W [out, in]), an axpy along N where its rows are.
constexpr int64_t kSmallM = 4;

template <class A>
void gemm_small_m_dot(const GemmArgs& g, const GemmItem& it) {
  constexpr int64_t W = batch<A>::size;
  int64_t kv = g.K / W * W;
  for (int64_t j = 0; j < g.N; ++j) {
    const float* bj = it.b + j * it.b_j;  // op(B)(:, j), contiguous along k
    for (int64_t i = 0; i < g.M; ++i) {
      const float* ai = it.a + i * it.a_i;
      batch<A> acc(0.f);
      for (int64_t k = 0; k < kv; k += W)
        acc = fmadd<A>(batch<A>::load_unaligned(ai + k), batch<A>::load_unaligned(bj + k), acc);
      float dot = xsimd::hadd(acc);
      for (int64_t k = kv; k < g.K; ++k) dot += ai[k] * bj[k];
      float start = g.beta == 0.f ? 0.f : g.beta * gemm_in<A>(g, it.c, it.ldc).at(i, j).p[0];
      it.c[i * it.ldc + j] = g.alpha * dot + start;
    }
  }
}

template <class A>
void gemm_small_m_axpy(const GemmArgs& g, const GemmItem& it) {
  constexpr int64_t W = batch<A>::size;
  int64_t nv = g.N / W * W;
  for (int64_t i = 0; i < g.M; ++i) {
    float* ci = it.c + i * it.ldc;
    const float* in = gemm_in<A>(g, it.c, it.ldc).at(i, 0).p;
    for (int64_t j = 0; j < g.N; ++j) ci[j] = g.beta == 0.f ? 0.f : g.beta * in[j];
    for (int64_t k = 0; k < g.K; ++k) {
      const float* bk = it.b + k * it.b_k;  // op(B)(k, :), contiguous along j
      float a = g.alpha * it.a[i * it.a_i + k * it.a_k];
      batch<A> av(a);
      for (int64_t j = 0; j < nv; j += W)
        fmadd<A>(av, batch<A>::load_unaligned(bk + j), batch<A>::load_unaligned(ci + j))
            .store_unaligned(ci + j);
      for (int64_t j = nv; j < g.N; ++j) ci[j] += a * bk[j];
    }
  }
}

// Whether the small-M path takes this product: few rows, and op(B) contiguous along K (with op(A)) or N.
template <class A>
bool gemm_small_m_applies(const GemmArgs& g, const GemmItem& it) {
  return g.M <= kSmallM && ((it.b_k == 1 && it.a_k == 1) || it.b_j == 1);
}

// One item's product on the calling thread, for callers that spread their own items over the pool (the
// batch-head pairs of attention): the small-M paths where they apply, else the packed scheme.
template <class A>
void gemm_one(const GemmArgs& g, const GemmItem& it) {
  if (g.M <= 0 || g.N <= 0) return;
  if (g.K <= 0) return gemm_scale_item<A>(g, it.c, it.ldc);
  if (!gemm_small_m_applies<A>(g, it)) return gemm_rect<A>(g, it, 0, g.M, 0, g.N);
  if (it.b_k == 1 && it.a_k == 1)
    gemm_small_m_dot<A>(g, it);
  else
    gemm_small_m_axpy<A>(g, it);
}

// How the work is cut: `parts` rectangles per batch item, along M (rows) or N (columns), in whole tiles;
// `threaded` is false when the whole product is too small to pay for waking the pool.
struct GemmSplit {
  int64_t parts;
  bool rows, threaded;
};

template <class A>
GemmSplit gemm_split(const GemmArgs& g, int threads) {
  constexpr int64_t kMinThreadedWork = int64_t(1) << 20;  // multiply-adds, about 10 us on one AVX-512 core
  constexpr int64_t MR = GemmTile<A>::MR, NR = GemmTile<A>::NV * static_cast<int64_t>(batch<A>::size);
  int64_t work = int64_t(g.batch) * g.M * g.N * g.K;
  if (threads <= 1 || work < kMinThreadedWork) return {1, true, false};
  if (g.batch % threads == 0 || g.batch >= 4 * threads) return {1, true, true};
  // Cutting rows makes each thread pack all of op(B), cutting columns all of op(A): copy the smaller one.
  bool rows = g.M >= g.N;
  int64_t tiles = rows ? (g.M + MR - 1) / MR : (g.N + NR - 1) / NR;
  return {tiles < threads ? tiles : threads, rows, true};
}

template <class A>
void gemm(const GemmArgs& g, const float* Ap, const float* Bp, float* Cp) {
  if (g.batch <= 0 || g.M <= 0 || g.N <= 0) return;
  // Nothing to pack or to thread (K == 0, or a few rows): item by item. The strides are the same for all.
  if (g.K <= 0 || gemm_small_m_applies<A>(g, gemm_item<A>(g, Ap, Bp, Cp, 0))) {
    for (int64_t b = 0; b < g.batch; ++b) gemm_one<A>(g, gemm_item<A>(g, Ap, Bp, Cp, b));
    return;
  }
  constexpr int64_t MR = GemmTile<A>::MR, NR = GemmTile<A>::NV * static_cast<int64_t>(batch<A>::size);
  GemmSplit split = gemm_split<A>(g, pool_threads());
  int64_t tiles = split.rows ? (g.M + MR - 1) / MR : (g.N + NR - 1) / NR;
  auto job = [&](int64_t j) {
    int64_t b = j / split.parts, part = j % split.parts;
    int64_t t0 = tiles * part / split.parts, t1 = tiles * (part + 1) / split.parts;
    GemmItem it = gemm_item<A>(g, Ap, Bp, Cp, b);
    if (split.rows)
      gemm_rect<A>(g, it, t0 * MR, t1 * MR < g.M ? t1 * MR : g.M, 0, g.N);
    else
      gemm_rect<A>(g, it, 0, g.M, t0 * NR, t1 * NR < g.N ? t1 * NR : g.N);
  };
  int64_t jobs = g.batch * split.parts;
  if (split.threaded)
    for_chunks(jobs, job);
  else
    for (int64_t j = 0; j < jobs; ++j) job(j);
}

}  // namespace tf::cpu
