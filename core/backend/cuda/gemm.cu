// Matrix products through cuBLAS. cuBLAS is column-major and a row-major matrix read column-major is its
// transpose, so row-major C = op(A) op(B) is computed as column-major C^T = op(B)^T op(A)^T: swap the
// operands and M with N, keep the flags. Batches use the strided-batched call (stride 0 shares a matrix).
// TF32 tensor cores are off unless TF_CUDA_TF32=1 is set, so results match the float32 CPU kernels.
#include <climits>
#include <cstdlib>
#include <cstring>

#include "backend/cuda/common.cuh"
#include "backend/cuda/kernels.cuh"

namespace tf::cuda {

namespace {

cublasHandle_t cublas() {
  // Never destroyed, like the pools: the last tensors can outlive main.
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    TF_CUDA_CALL(cublasCreate(&h));
    const char* tf32 = std::getenv("TF_CUDA_TF32");
    bool use_tf32 = tf32 && std::strcmp(tf32, "1") == 0;
    TF_CUDA_CALL(cublasSetMathMode(h, use_tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
    return h;
  }();
  return handle;
}

// C = beta * C (or beta * the bias row) over each M x N matrix (beta 0 writes zeros, as the reference
// ignores C then): the K = 0 case, which cuBLAS would reject for its zero leading dimensions, and a bias's
// start before cuBLAS adds the product to it.
__global__ void scale_matrices(float* C, const float* bias, float beta, int M, int N, int64_t ldc,
                               int64_t stride_c, int64_t total) {
  for (int64_t n = flat_begin(); n < total; n += flat_stride()) {
    int64_t j = n % N, i = (n / N) % M, b = n / (static_cast<int64_t>(N) * M);
    float& c = C[b * stride_c + i * ldc + j];
    c = beta == 0.f ? 0.f : beta * (bias ? bias[j] : c);
  }
}

int as_int(int64_t v, const char* what) {
  TF_CHECK(v >= 0 && v <= INT_MAX, "gemm: ", what, " = ", v, " does not fit cuBLAS's int");
  return static_cast<int>(v);
}

}  // namespace

void gemm(const GemmArgs& g, const float* A, const float* B, float* C) {
  if (g.batch <= 0 || g.M <= 0 || g.N <= 0) return;
  bool from_bias = g.bias && g.beta != 0.f;
  if (g.K <= 0 || from_bias) {
    int64_t total = static_cast<int64_t>(g.batch) * g.M * g.N;
    scale_matrices<<<flat_blocks(total), kThreads>>>(C, g.bias, g.beta, g.M, g.N, g.ldc, g.stride_c, total);
    TF_CUDA_LAUNCHED("scale_matrices");
    if (g.K <= 0) return;
  }
  float beta = from_bias ? 1.f : g.beta;  // C now holds beta * bias
  cublasOperation_t op_a = g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t op_b = g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  TF_CUDA_CALL(cublasSgemmStridedBatched(cublas(), op_b, op_a, g.N, g.M, g.K, &g.alpha, B,
                                         as_int(g.ldb, "ldb"), g.stride_b, A, as_int(g.lda, "lda"),
                                         g.stride_a, &beta, C, as_int(g.ldc, "ldc"), g.stride_c, g.batch));
}

}  // namespace tf::cuda
