// Rotary position embedding: one thread per rotated pair (2i, 2i+1) or per copied column of each
// [B*T, cols] row. Angles and the rotation are computed in double as in the reference: at positions in
// the hundreds a float angle would already be off by ~1e-5 radians.
#include "backend/cuda/common.cuh"
#include "backend/cuda/kernels.cuh"

namespace tf::cuda {

namespace {

__global__ void rotary_kernel(const float* x, float* y, int64_t T, int64_t cols, int64_t head_dim,
                              int64_t rotate_cols, int64_t pos_offset, bool inverse, int64_t n) {
  int64_t pairs = rotate_cols / 2, per_row = pairs + (cols - rotate_cols);
  for (int64_t k = flat_begin(); k < n; k += flat_stride()) {
    int64_t row = k / per_row, j = k % per_row;
    const float* xr = x + row * cols;
    float* yr = y + row * cols;
    if (j >= pairs) {
      int64_t c = rotate_cols + (j - pairs);
      yr[c] = xr[c];
      continue;
    }
    int64_t c = 2 * j, i = (c % head_dim) / 2, t = row % T;
    double theta = static_cast<double>(pos_offset + t) *
                   pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(head_dim));
    double sn, cs;
    sincos(theta, &sn, &cs);
    if (inverse) sn = -sn;
    double a = xr[c], b = xr[c + 1];
    yr[c] = static_cast<float>(a * cs - b * sn);
    yr[c + 1] = static_cast<float>(a * sn + b * cs);
  }
}

}  // namespace

void rotary_forward(const float* x, float* y, int64_t B, int64_t T, int64_t cols, int64_t head_dim,
                    int64_t rotate_cols, int64_t pos_offset, bool inverse) {
  int64_t n = B * T * (rotate_cols / 2 + (cols - rotate_cols));
  if (n <= 0) return;
  rotary_kernel<<<flat_blocks(n), kThreads>>>(x, y, T, cols, head_dim, rotate_cols, pos_offset, inverse, n);
  TF_CUDA_LAUNCHED("rotary_kernel");
}

}  // namespace tf::cuda
