// Deterministic column sums over many rows, shared by sum_rows and the LayerNorm dgamma/dbeta: blocks of
// 32 columns x kColumnChunkRows rows write double partials [N, chunks, cols], then one thread per column adds
// its chunks in order. No atomics, so a bias gradient is the same on every run.
#pragma once
#include "backend/cuda/common.cuh"
#include "backend/cuda/device_pool.cuh"

namespace tf::cuda {

constexpr int kColumnTile = 32;     // columns per block (one warp's width: coalesced row reads)
constexpr int kColumnThreadsY = 8;  // threads per column inside a block
constexpr int64_t kMaxColumnChunks = 4096;

// Term(r, c, s) adds the N contributions of element (r, c) to s[0..N).
template <int N, class Term>
__global__ void column_partials(Term term, int64_t rows, int64_t cols, int64_t chunk_rows, double* partial) {
  __shared__ double acc[N][kColumnThreadsY][kColumnTile + 1];
  int64_t c = static_cast<int64_t>(blockIdx.x) * kColumnTile + threadIdx.x;
  int64_t r0 = static_cast<int64_t>(blockIdx.y) * chunk_rows, r1 = min(rows, r0 + chunk_rows);
  double s[N] = {};
  if (c < cols)
    for (int64_t r = r0 + threadIdx.y; r < r1; r += kColumnThreadsY) term(r, c, s);
  for (int k = 0; k < N; ++k) acc[k][threadIdx.y][threadIdx.x] = s[k];
  __syncthreads();
  if (threadIdx.y != 0 || c >= cols) return;
  for (int k = 0; k < N; ++k) {
    double t = 0;
    for (int y = 0; y < kColumnThreadsY; ++y) t += acc[k][y][threadIdx.x];
    partial[(static_cast<int64_t>(k) * gridDim.y + blockIdx.y) * cols + c] = t;
  }
}

// out[k][c] (+)= the sum of the chunks of sum k for column c.
template <int N>
struct ColumnOutputs {
  float* out[N];
};

template <int N>
__global__ void column_finish(const double* partial, int64_t chunks, int64_t cols, ColumnOutputs<N> outs,
                              bool accumulate) {
  for (int64_t c = flat_begin(); c < cols; c += flat_stride()) {
    for (int k = 0; k < N; ++k) {
      double s = accumulate ? outs.out[k][c] : 0.0;
      for (int64_t j = 0; j < chunks; ++j) s += partial[(k * chunks + j) * cols + c];
      outs.out[k][c] = static_cast<float>(s);
    }
  }
}

template <int N, class Term>
void sum_columns(Term term, int64_t rows, int64_t cols, ColumnOutputs<N> outs, bool accumulate) {
  if (cols <= 0) return;
  int64_t chunk_rows = std::max<int64_t>(256, (rows + kMaxColumnChunks - 1) / kMaxColumnChunks);
  int64_t chunks = std::max<int64_t>(1, (rows + chunk_rows - 1) / chunk_rows);
  DeviceScratch<double> partial(static_cast<size_t>(N * chunks * cols));
  dim3 grid(static_cast<unsigned>((cols + kColumnTile - 1) / kColumnTile), static_cast<unsigned>(chunks));
  column_partials<N>
      <<<grid, dim3(kColumnTile, kColumnThreadsY)>>>(term, rows, cols, chunk_rows, partial.get());
  TF_CUDA_LAUNCHED("column_partials");
  column_finish<N><<<flat_blocks(cols), kThreads>>>(partial.get(), chunks, cols, outs, accumulate);
  TF_CUDA_LAUNCHED("column_finish");
}

}  // namespace tf::cuda
