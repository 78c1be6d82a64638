// Fused multi-head attention. Forward: a block takes 8 query rows of one (batch, head), one warp per row;
// key and value rows pass through shared memory 32 at a time, a lane scores one key, and the kept weights
// row [Tk] in global memory doubles as the warp's scratch for scores. Backward: the same query blocks form
// ds = w * (dout.v - sum w * dout.v) * scale into a scratch [B, heads, Tq, Tk] and dq = ds k; then key
// blocks (one warp per key row) form dk = ds^T q and dv = w^T dout. No atomics; every output is written.
// Under the causal mask a block stops at the last key its rows can see. Head dims up to kMaxD.
#include "backend/cuda/common.cuh"
#include "backend/cuda/device_pool.cuh"
#include "backend/cuda/kernels.cuh"
#include "backend/cuda/warp_reduce.cuh"

namespace tf::cuda {

namespace {

constexpr int kWarps = 8;   // query rows (forward, backward dq) or key rows (backward dk, dv) per block
constexpr int kTile = 32;   // rows per shared-memory tile
constexpr int kMaxD = 128;  // head dim limit: each lane owns up to kMaxD / 32 output columns
constexpr int kPerLane = kMaxD / 32;

using Tile = float[kTile][kMaxD + 1];  // +1: a lane reading its own row hits its own bank

__device__ bool visible(const AttentionArgs& a, int b, int i, int j) {
  if (a.causal && j > i + a.q_offset) return false;
  return !a.key_keep || a.key_keep[static_cast<int64_t>(b) * a.Tk + j] != 0.f;
}

// Keys [0, end) hold every key visible to query rows below i_end.
__device__ int key_end(const AttentionArgs& a, int i_end) {
  return a.causal ? max(0, min(a.Tk, i_end + a.q_offset)) : a.Tk;
}

// tile[r][d] = head h's columns of row t0 + r of a [B, T, stride] buffer; rows past T read as zeros.
__device__ void load_tile(Tile& tile, const float* base, int64_t stride, int b, int T, int t0, int h, int D) {
  for (int e = threadIdx.x; e < kTile * D; e += blockDim.x) {
    int r = e / D, d = e % D, t = t0 + r;
    tile[r][d] =
        t < T ? base[(static_cast<int64_t>(b) * T + t) * stride + static_cast<int64_t>(h) * D + d] : 0.f;
  }
}

// rows[w][d] = head h's columns of row i0 + w (zeros past T).
__device__ void load_rows(float (&rows)[kWarps][kMaxD], const float* base, int64_t stride, int b, int T,
                          int i0, int h, int D) {
  for (int e = threadIdx.x; e < kWarps * D; e += blockDim.x) {
    int r = e / D, d = e % D, t = i0 + r;
    rows[r][d] =
        t < T ? base[(static_cast<int64_t>(b) * T + t) * stride + static_cast<int64_t>(h) * D + d] : 0.f;
  }
}

// s[j] = rows[warp] . tile[j - j0] for the lane's key j of each tile of keys [0, kend) (keys that fail
// `keep` are skipped); `from` is the key (or value) buffer. Every thread of the block must call it.
template <class Keep>
__device__ void dot_with_tiles(Tile& tile, const float (&rows)[kWarps][kMaxD], const float* from,
                               int64_t stride, const AttentionArgs& a, int b, int h, int kend, bool row,
                               float scale, float* s, Keep keep) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int j0 = 0; j0 < kend; j0 += kTile) {
    __syncthreads();
    load_tile(tile, from, stride, b, a.Tk, j0, h, a.D);
    __syncthreads();
    int j = j0 + lane;
    if (!row || j >= kend || !keep(j)) continue;
    float dot = 0;
    for (int d = 0; d < a.D; ++d) dot += rows[warp][d] * tile[lane][d];
    s[j] = dot * scale;
  }
}

// acc[t] = sum over keys j < kend that pass `keep` of c[j] * tile row j, column lane + 32 t (a skipped row
// adds nothing, not even 0 * NaN). Every thread must call it.
template <class Keep>
__device__ void weighted_rows(Tile& tile, const float* from, int64_t stride, const AttentionArgs& a, int b,
                              int h, int kend, bool row, const float* c, float (&acc)[kPerLane], Keep keep) {
  int lane = threadIdx.x % 32;
  for (int t = 0; t < kPerLane; ++t) acc[t] = 0.f;
  for (int j0 = 0; j0 < kend; j0 += kTile) {
    __syncthreads();
    load_tile(tile, from, stride, b, a.Tk, j0, h, a.D);
    __syncthreads();
    if (!row) continue;
    int n = min(kTile, kend - j0);
    for (int jj = 0; jj < n; ++jj) {
      if (!keep(j0 + jj)) continue;
      float cj = c[j0 + jj];
      for (int t = 0; t < kPerLane; ++t)
        if (lane + 32 * t < a.D) acc[t] += cj * tile[jj][lane + 32 * t];
    }
  }
}

__device__ void store_row(const float (&acc)[kPerLane], float* dst, int D) {
  int lane = threadIdx.x % 32;
  for (int t = 0; t < kPerLane; ++t)
    if (lane + 32 * t < D) dst[lane + 32 * t] = acc[t];
}

// Turns the warp's scores s[0, kend) into softmax weights over the visible keys; writes all Tk of them. As
// in the reference, a NaN score, a +inf score or all visible scores -inf make the row NaN (through
// exp(NaN) and a NaN total), and a row with no visible key gets zeros.
__device__ void softmax_row(const AttentionArgs& a, int b, int i, int kend, float* s) {
  int lane = threadIdx.x % 32;
  float m = -INFINITY;
  for (int j = lane; j < kend; j += 32)
    if (visible(a, b, i, j)) m = fmaxf(m, s[j]);
  m = warp_reduce(m, MaxOp{});
  float total = 0;
  for (int j = lane; j < a.Tk; j += 32) {
    float e = j < kend && visible(a, b, i, j) ? expf(s[j] - m) : 0.f;
    s[j] = e;
    total += e;
  }
  total = warp_sum(total);
  for (int j = lane; j < a.Tk; j += 32) s[j] = total == 0.f ? 0.f : s[j] / total;
  __syncwarp();
}

__global__ void attention_forward_kernel(AttentionArgs a, const float* q, const float* k, const float* v,
                                         float* out, float* weights) {
  __shared__ Tile tile;
  __shared__ float qs[kWarps][kMaxD];
  int b = blockIdx.z, h = blockIdx.y, i0 = blockIdx.x * kWarps, i = i0 + threadIdx.x / 32;
  bool row = i < a.Tq;
  int kend = key_end(a, min(a.Tq, i0 + kWarps));
  load_rows(qs, q, a.q_row, b, a.Tq, i0, h, a.D);
  float* w = weights + ((static_cast<int64_t>(b) * a.heads + h) * a.Tq + (row ? i : 0)) * a.Tk;
  auto seen = [&](int j) { return visible(a, b, i, j); };
  dot_with_tiles(tile, qs, k, a.k_row, a, b, h, kend, row, a.scale, w, seen);
  if (row) softmax_row(a, b, i, kend, w);
  float acc[kPerLane];
  weighted_rows(tile, v, a.v_row, a, b, h, kend, row, w, acc, seen);
  if (row)
    store_row(acc, out + (static_cast<int64_t>(b) * a.Tq + i) * a.out_row + static_cast<int64_t>(h) * a.D,
              a.D);
}

// Per query row i: ds[j] = w[j] * (dout_i . v_j - sum_j' w[j'] dout_i . v_j') * scale, and dq_i = ds k.
__global__ void attention_backward_query_kernel(AttentionArgs a, const float* k, const float* v,
                                                const float* weights, const float* dout, float* dq,
                                                float* ds) {
  __shared__ Tile tile;
  __shared__ float gs[kWarps][kMaxD];
  int b = blockIdx.z, h = blockIdx.y, i0 = blockIdx.x * kWarps, i = i0 + threadIdx.x / 32,
      lane = threadIdx.x % 32;
  bool row = i < a.Tq;
  int kend = key_end(a, min(a.Tq, i0 + kWarps));
  load_rows(gs, dout, a.out_row, b, a.Tq, i0, h, a.D);
  int64_t at = ((static_cast<int64_t>(b) * a.heads + h) * a.Tq + (row ? i : 0)) * a.Tk;
  const float* w = weights + at;
  float* s = ds + at;
  auto all = [](int) { return true; };
  dot_with_tiles(tile, gs, v, a.v_row, a, b, h, kend, row, 1.f, s, all);
  if (row) {
    float wdw = 0;
    for (int j = lane; j < kend; j += 32) wdw += w[j] * s[j];
    wdw = warp_sum(wdw);
    for (int j = lane; j < a.Tk; j += 32) s[j] = j < kend ? w[j] * (s[j] - wdw) * a.scale : 0.f;
    __syncwarp();
  }
  float acc[kPerLane];
  weighted_rows(tile, k, a.k_row, a, b, h, kend, row, s, acc, all);
  if (row)
    store_row(acc, dq + (static_cast<int64_t>(b) * a.Tq + i) * a.q_row + static_cast<int64_t>(h) * a.D, a.D);
}

// Per key row j: dk_j = sum_i ds[i][j] q_i and dv_j = sum_i w[i][j] dout_i, over the query rows that can
// see any key of the block.
__global__ void attention_backward_key_kernel(AttentionArgs a, const float* q, const float* weights,
                                              const float* dout, const float* ds, float* dk, float* dv) {
  __shared__ Tile qt, gt;
  __shared__ float wt[kTile][kWarps], st[kTile][kWarps];
  int b = blockIdx.z, h = blockIdx.y, j0 = blockIdx.x * kWarps, warp = threadIdx.x / 32;
  int j = j0 + warp;
  bool key = j < a.Tk;
  int istart = a.causal ? max(0, min(a.Tq, j0 - a.q_offset)) : 0;
  int64_t plane = (static_cast<int64_t>(b) * a.heads + h) * a.Tq;
  float acc_k[kPerLane] = {}, acc_v[kPerLane] = {};
  int lane = threadIdx.x % 32;
  for (int i0 = istart; i0 < a.Tq; i0 += kTile) {
    __syncthreads();
    load_tile(qt, q, a.q_row, b, a.Tq, i0, h, a.D);
    load_tile(gt, dout, a.out_row, b, a.Tq, i0, h, a.D);
    for (int e = threadIdx.x; e < kTile * kWarps; e += blockDim.x) {
      int r = e / kWarps, c = e % kWarps, ii = i0 + r, jj = j0 + c;
      bool in = ii < a.Tq && jj < a.Tk;
      wt[r][c] = in ? weights[(plane + ii) * a.Tk + jj] : 0.f;
      st[r][c] = in ? ds[(plane + ii) * a.Tk + jj] : 0.f;
    }
    __syncthreads();
    if (!key) continue;
    for (int r = 0; r < kTile; ++r) {
      float wij = wt[r][warp], sij = st[r][warp];
      for (int t = 0; t < kPerLane; ++t) {
        int d = lane + 32 * t;
        if (d >= a.D) continue;
        acc_k[t] += sij * qt[r][d];
        acc_v[t] += wij * gt[r][d];
      }
    }
  }
  if (!key) return;
  int64_t krow = static_cast<int64_t>(b) * a.Tk + j;
  store_row(acc_k, dk + krow * a.k_row + static_cast<int64_t>(h) * a.D, a.D);
  store_row(acc_v, dv + krow * a.v_row + static_cast<int64_t>(h) * a.D, a.D);
}

void check_args(const AttentionArgs& a) {
  TF_CHECK(a.D > 0 && a.D <= kMaxD, "CUDA attention supports head dims 1..", kMaxD, ", got ", a.D);
  TF_CHECK(a.heads <= 65535 && a.B <= 65535, "CUDA attention: batch ", a.B, " or heads ", a.heads,
           " exceeds the grid limit 65535");
}

dim3 grid_for(const AttentionArgs& a, int rows) {
  return dim3(static_cast<unsigned>((rows + kWarps - 1) / kWarps), static_cast<unsigned>(a.heads),
              static_cast<unsigned>(a.B));
}

// Zeros the heads * D columns of every one of the B * Tq rows of a buffer with row stride `stride`.
void zero_rows(float* base, int64_t stride, const AttentionArgs& a) {
  TF_CUDA_CALL(cudaMemset2D(base, static_cast<size_t>(stride) * sizeof(float), 0,
                            static_cast<size_t>(a.heads) * a.D * sizeof(float),
                            static_cast<size_t>(a.B) * a.Tq));
}

}  // namespace

void attention_forward(const AttentionArgs& a, const float* q, const float* k, const float* v, float* out,
                       float* weights) {
  if (a.B <= 0 || a.heads <= 0 || a.Tq <= 0) return;
  check_args(a);
  if (a.Tk <= 0) {  // nothing to attend to: zero outputs, an empty weights tensor
    zero_rows(out, a.out_row, a);
    return;
  }
  attention_forward_kernel<<<grid_for(a, a.Tq), kWarps * 32>>>(a, q, k, v, out, weights);
  TF_CUDA_LAUNCHED("attention_forward_kernel");
}

void attention_backward(const AttentionArgs& a, const float* q, const float* k, const float* v,
                        const float* weights, const float* dout, float* dq, float* dk, float* dv) {
  if (a.B <= 0 || a.heads <= 0 || a.Tq <= 0) return;
  check_args(a);
  if (a.Tk <= 0) {  // no keys: dq is zero, dk and dv are empty
    zero_rows(dq, a.q_row, a);
    return;
  }
  DeviceScratch<float> ds(static_cast<size_t>(a.B) * a.heads * a.Tq * a.Tk);  // [B, heads, Tq, Tk]
  attention_backward_query_kernel<<<grid_for(a, a.Tq), kWarps * 32>>>(a, k, v, weights, dout, dq, ds.get());
  TF_CUDA_LAUNCHED("attention_backward_query_kernel");
  attention_backward_key_kernel<<<grid_for(a, a.Tk), kWarps * 32>>>(a, q, weights, dout, ds.get(), dk, dv);
  TF_CUDA_LAUNCHED("attention_backward_key_kernel");
}

}  // namespace tf::cuda
