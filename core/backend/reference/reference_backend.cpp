// The reference backend: host memory from the shared pool, every kernel from tf::ref. Tests install it
// with set_backend(Device::CPU, &reference_backend()) to run whole models on the oracle kernels.
#include "backend/host_backend.hpp"
#include "backend/reference/kernels.hpp"

namespace tf {

namespace {

class ReferenceBackend final : public HostBackend {
 public:
  const char* name() const override { return "reference"; }
  void fill(float* dst, float value, size_t n) override {
    for (size_t i = 0; i < n; ++i) dst[i] = value;
  }
  void gemm(const GemmArgs& g, const float* A, const float* B, float* C) override { ref::gemm(g, A, B, C); }
  void binary_forward(BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb,
                      float* out, const Dims4& d) override {
    ref::binary_forward(op, a, sa, b, sb, out, d);
  }
  void scale(const float* x, float alpha, float* y, size_t n) override { ref::scale(x, alpha, y, n); }
  void axpy(float alpha, const float* x, float* y, size_t n) override { ref::axpy(alpha, x, y, n); }
  void mul_accumulate(const float* a, const float* b, float* y, size_t n) override {
    ref::mul_accumulate(a, b, y, n);
  }
  void sum(const float* x, size_t n, float* out) override { ref::sum(x, n, out); }
  void sum_squares(const float* x, size_t n, float* out) override { ref::sum_squares(x, n, out); }
  void sum_rows(const float* x, float* out, int64_t rows, int64_t cols, bool acc) override {
    ref::sum_rows(x, out, rows, cols, acc);
  }
  bool all_finite(const float* x, size_t n) override { return ref::all_finite(x, n); }
  void copy_strided(const float* s, const Strides4& ss, float* d, const Strides4& ds, const Dims4& dims,
                    bool acc) override {
    ref::copy_strided(s, ss, d, ds, dims, acc);
  }
  void layer_norm_forward(const float* x, const float* g, const float* b, float* y, float* mean, float* rstd,
                          int64_t rows, int64_t C, float eps) override {
    ref::layer_norm_forward(x, g, b, y, mean, rstd, rows, C, eps);
  }
  void layer_norm_backward(const float* dy, const float* x, const float* g, const float* mean,
                           const float* rstd, float* dx, float* dg, float* db, int64_t rows,
                           int64_t C) override {
    ref::layer_norm_backward(dy, x, g, mean, rstd, dx, dg, db, rows, C);
  }
  void gelu_forward(const float* x, float* y, size_t n, GeluMode m) override {
    ref::gelu_forward(x, y, n, m);
  }
  void gelu_backward(const float* x, const float* dy, float* dx, size_t n, GeluMode m) override {
    ref::gelu_backward(x, dy, dx, n, m);
  }
  void softmax_forward(const float* x, float* y, int64_t r, int64_t c) override {
    ref::softmax_forward(x, y, r, c);
  }
  void softmax_backward(const float* y, const float* dy, float* dx, int64_t r, int64_t c) override {
    ref::softmax_backward(y, dy, dx, r, c);
  }
  void log_softmax_forward(const float* x, float* y, int64_t r, int64_t c) override {
    ref::log_softmax_forward(x, y, r, c);
  }
  void log_softmax_backward(const float* y, const float* dy, float* dx, int64_t r, int64_t c) override {
    ref::log_softmax_backward(y, dy, dx, r, c);
  }
  void masked_fill(const float* x, const float* m, const Strides4& ms, float v, float* y,
                   const Dims4& d) override {
    ref::masked_fill(x, m, ms, v, y, d);
  }
  void embedding_forward(const float* t, const int32_t* ids, float* out, int64_t n, int64_t C) override {
    ref::embedding_forward(t, ids, out, n, C);
  }
  void embedding_backward(const float* d, const int32_t* ids, float* dt, int64_t n, int64_t C) override {
    ref::embedding_backward(d, ids, dt, n, C);
  }
  void attention_forward(const AttentionArgs& a, const float* q, const float* k, const float* v, float* out,
                         float* w) override {
    ref::attention_forward(a, q, k, v, out, w);
  }
  void attention_backward(const AttentionArgs& a, const float* q, const float* k, const float* v,
                          const float* w, const float* dout, float* dq, float* dk, float* dv) override {
    ref::attention_backward(a, q, k, v, w, dout, dq, dk, dv);
  }
  void cross_entropy_forward(const float* l, const int32_t* t, float* rows, float* lse, int64_t N,
                             int64_t V) override {
    ref::cross_entropy_forward(l, t, rows, lse, N, V);
  }
  void cross_entropy_backward(const float* l, const int32_t* t, const float* lse, const float* rs, float* dl,
                              int64_t N, int64_t V) override {
    ref::cross_entropy_backward(l, t, lse, rs, dl, N, V);
  }
  void rotary_forward(const float* x, float* y, int64_t B, int64_t T, int64_t cols, int64_t hd, int64_t rc,
                      int64_t off, bool inv) override {
    ref::rotary_forward(x, y, B, T, cols, hd, rc, off, inv);
  }
  void adam_step(float* p, const float* g, float* m, float* v, size_t n, const AdamArgs& a) override {
    ref::adam_step(p, g, m, v, n, a);
  }
  void sgd_step(float* p, const float* g, float* mom, size_t n, const SgdArgs& a) override {
    ref::sgd_step(p, g, mom, n, a);
  }
};

}  // namespace

Backend& reference_backend() {
  static ReferenceBackend backend;
  return backend;
}

}  // namespace tf
