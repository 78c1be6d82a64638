// Reductions in double, like the reference, and deterministic: a fixed number of blocks write partial
// sums that one block adds in a fixed order. Results stay in device memory (the ops keep scalars on the
// device); only all_finite brings its answer back to the host.
#include "backend/cuda/column_sums.cuh"
#include "backend/cuda/kernels.cuh"
#include "backend/cuda/warp_reduce.cuh"

namespace tf::cuda {

namespace {

constexpr int kSumBlocks = 512;

template <bool Square>
__global__ void partial_sums(const float* x, int64_t n, double* partial) {
  double s = 0;
  for (int64_t i = flat_begin(); i < n; i += flat_stride()) {
    double v = x[i];
    s += Square ? v * v : v;
  }
  s = block_sum(s);
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

__global__ void finish_sum(const double* partial, int count, float* out) {
  double s = 0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) s += partial[i];
  s = block_sum(s);
  if (threadIdx.x == 0) out[0] = static_cast<float>(s);
}

template <bool Square>
void reduce_all(const float* x, size_t n, float* out) {
  int64_t count = static_cast<int64_t>(n);
  int blocks = static_cast<int>(
      std::min<int64_t>(kSumBlocks, std::max<int64_t>(1, (count + kThreads - 1) / kThreads)));
  DeviceScratch<double> partial(static_cast<size_t>(blocks));
  partial_sums<Square><<<blocks, kThreads>>>(x, count, partial.get());
  TF_CUDA_LAUNCHED("partial_sums");
  finish_sum<<<1, kThreads>>>(partial.get(), blocks, out);
  TF_CUDA_LAUNCHED("finish_sum");
}

struct RowTerm {
  const float* x;
  int64_t cols;
  __device__ void operator()(int64_t r, int64_t c, double* s) const { s[0] += x[r * cols + c]; }
};

__global__ void finite_kernel(const float* x, int64_t n, int* all_ok) {
  for (int64_t i = flat_begin(); i < n; i += flat_stride())
    if (!isfinite(x[i])) *all_ok = 0;
}

}  // namespace

void sum(const float* x, size_t n, float* out) { reduce_all<false>(x, n, out); }

void sum_squares(const float* x, size_t n, float* out) { reduce_all<true>(x, n, out); }

void sum_rows(const float* x, float* out, int64_t rows, int64_t cols, bool accumulate) {
  sum_columns<1>(RowTerm{x, cols}, rows, cols, ColumnOutputs<1>{{out}}, accumulate);
}

bool all_finite(const float* x, size_t n) {
  if (!n) return true;
  DeviceScratch<int> flag(1);
  int ok = 1;
  TF_CUDA_CALL(cudaMemcpy(flag.get(), &ok, sizeof(int), cudaMemcpyHostToDevice));
  finite_kernel<<<flat_blocks(static_cast<int64_t>(n)), kThreads>>>(x, static_cast<int64_t>(n), flag.get());
  TF_CUDA_LAUNCHED("finite_kernel");
  TF_CUDA_CALL(cudaMemcpy(&ok, flag.get(), sizeof(int), cudaMemcpyDeviceToHost));
  return ok != 0;
}

}  // namespace tf::cuda
