// The CUDA backend: device memory from the caching pool, every kernel from the launchers in kernels.cuh.
// cuda_device_present() asks the runtime once and caches the answer; with no driver or no GPU it is false
// and nothing throws, so a CUDA build runs everywhere and its GPU tests skip.
#include "backend/cuda/common.cuh"
#include "backend/cuda/device_pool.cuh"
#include "backend/cuda/kernels.cuh"

namespace tf {

namespace {

class CudaBackend final : public Backend {
 public:
  Device device() const override { return Device::CUDA; }
  const char* name() const override { return "cuda"; }

  void* allocate(size_t bytes) override { return cuda::device_pool().allocate(bytes); }
  void deallocate(void* p, size_t bytes) override { cuda::device_pool().deallocate(p, bytes); }
  void copy_from_host(void* dst, const void* src, size_t bytes) override {
    cuda::copy_from_host(dst, src, bytes);
  }
  void copy_to_host(void* dst, const void* src, size_t bytes) override {
    cuda::copy_to_host(dst, src, bytes);
  }
  void copy(void* dst, const void* src, size_t bytes) override { cuda::copy(dst, src, bytes); }
  void fill(float* dst, float value, size_t n) override { cuda::fill(dst, value, n); }
  void synchronize() override { cuda::synchronize(); }

  void gemm(const GemmArgs& g, const float* A, const float* B, float* C) override { cuda::gemm(g, A, B, C); }

  void binary_forward(BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb,
                      float* out, const Dims4& d) override {
    cuda::binary_forward(op, a, sa, b, sb, out, d);
  }
  void scale(const float* x, float alpha, float* y, size_t n) override { cuda::scale(x, alpha, y, n); }
  void axpy(float alpha, const float* x, float* y, size_t n) override { cuda::axpy(alpha, x, y, n); }
  void mul_accumulate(const float* a, const float* b, float* y, size_t n) override {
    cuda::mul_accumulate(a, b, y, n);
  }

  void sum(const float* x, size_t n, float* out) override { cuda::sum(x, n, out); }
  void sum_squares(const float* x, size_t n, float* out) override { cuda::sum_squares(x, n, out); }
  void sum_rows(const float* x, float* out, int64_t rows, int64_t cols, bool acc) override {
    cuda::sum_rows(x, out, rows, cols, acc);
  }
  bool all_finite(const float* x, size_t n) override { return cuda::all_finite(x, n); }

  void copy_strided(const float* s, const Strides4& ss, float* d, const Strides4& ds, const Dims4& dims,
                    bool acc) override {
    cuda::copy_strided(s, ss, d, ds, dims, acc);
  }

  void layer_norm_forward(const float* x, const float* g, const float* b, float* y, float* mean, float* rstd,
                          int64_t rows, int64_t C, float eps) override {
    cuda::layer_norm_forward(x, g, b, y, mean, rstd, rows, C, eps);
  }
  void layer_norm_backward(const float* dy, const float* x, const float* g, const float* mean,
                           const float* rstd, float* dx, float* dg, float* db, int64_t rows,
                           int64_t C) override {
    cuda::layer_norm_backward(dy, x, g, mean, rstd, dx, dg, db, rows, C);
  }

  void gelu_forward(const float* x, float* y, size_t n, GeluMode m) override {
    cuda::gelu_forward(x, y, n, m);
  }
  void gelu_backward(const float* x, const float* dy, float* dx, size_t n, GeluMode m) override {
    cuda::gelu_backward(x, dy, dx, n, m);
  }

  void softmax_forward(const float* x, float* y, int64_t r, int64_t c) override {
    cuda::softmax_forward(x, y, r, c);
  }
  void softmax_backward(const float* y, const float* dy, float* dx, int64_t r, int64_t c) override {
    cuda::softmax_backward(y, dy, dx, r, c);
  }
  void log_softmax_forward(const float* x, float* y, int64_t r, int64_t c) override {
    cuda::log_softmax_forward(x, y, r, c);
  }
  void log_softmax_backward(const float* y, const float* dy, float* dx, int64_t r, int64_t c) override {
    cuda::log_softmax_backward(y, dy, dx, r, c);
  }

  void masked_fill(const float* x, const float* m, const Strides4& ms, float v, float* y,
                   const Dims4& d) override {
    cuda::masked_fill(x, m, ms, v, y, d);
  }

  void embedding_forward(const float* t, const int32_t* ids, float* out, int64_t n, int64_t C) override {
    cuda::embedding_forward(t, ids, out, n, C);
  }
  void embedding_backward(const float* d, const int32_t* ids, float* dt, int64_t n, int64_t C) override {
    cuda::embedding_backward(d, ids, dt, n, C);
  }

  void attention_forward(const AttentionArgs& a, const float* q, const float* k, const float* v, float* out,
                         float* w) override {
    cuda::attention_forward(a, q, k, v, out, w);
  }
  void attention_backward(const AttentionArgs& a, const float* q, const float* k, const float* v,
                          const float* w, const float* dout, float* dq, float* dk, float* dv) override {
    cuda::attention_backward(a, q, k, v, w, dout, dq, dk, dv);
  }

  void cross_entropy_forward(const float* l, const int32_t* t, float* rows, float* lse, int64_t N,
                             int64_t V) override {
    cuda::cross_entropy_forward(l, t, rows, lse, N, V);
  }
  void cross_entropy_backward(const float* l, const int32_t* t, const float* lse, const float* rs, float* dl,
                              int64_t N, int64_t V) override {
    cuda::cross_entropy_backward(l, t, lse, rs, dl, N, V);
  }

  void rotary_forward(const float* x, float* y, int64_t B, int64_t T, int64_t cols, int64_t hd, int64_t rc,
                      int64_t off, bool inv) override {
    cuda::rotary_forward(x, y, B, T, cols, hd, rc, off, inv);
  }

  void adam_step(float* p, const float* g, float* m, float* v, size_t n, const AdamArgs& a) override {
    cuda::adam_step(p, g, m, v, n, a);
  }
  void sgd_step(float* p, const float* g, float* mom, size_t n, const SgdArgs& a) override {
    cuda::sgd_step(p, g, mom, n, a);
  }
};

}  // namespace

Backend& cuda_backend() {
  // Never destroyed: storages freed after main returns still reach it.
  static CudaBackend* backend = new CudaBackend;
  return *backend;
}

bool cuda_device_present() {
  static const bool present = [] {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      cudaGetLastError();  // no driver or no device: clear the error, report none
      return false;
    }
    return count > 0;
  }();
  return present;
}

}  // namespace tf
