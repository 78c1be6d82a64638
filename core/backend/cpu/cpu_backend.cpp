// The CPU backend: host memory from the caching pool (HostBackend), kernels from the instruction set chosen
// at start-up, work spread over the thread pool. Reductions use fixed-size chunks combined in order, so
// results depend on the instruction set but never on the number of threads.
#include <algorithm>
#include <string>

#include "backend/cpu/kernel_table.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "backend/host_backend.hpp"

namespace tf {

namespace {

constexpr int64_t kReduceChunk = 1 << 14;  // elements per partial sum
constexpr int64_t kNormChunk = 64;         // rows per partial dgamma/dbeta
constexpr int64_t kFlatGrain = 1 << 14;    // elements per task for flat elementwise work

// Scratch space from the host pool for one call (no heap traffic in a training step).
template <class T = float>
class Scratch : public PoolBuffer<T, HostPool> {
 public:
  explicit Scratch(size_t n) : PoolBuffer<T, HostPool>(host_pool(), n) {}
};

int64_t rows_of(const Dims4& d) { return d.size[0] * d.size[1] * d.size[2]; }

// Rows per task so that each task has at least ~kFlatGrain elements.
int64_t row_grain(int64_t cols) { return std::max<int64_t>(1, kFlatGrain / std::max<int64_t>(cols, 1)); }

class CpuBackend final : public HostBackend {
 public:
  explicit CpuBackend(const CpuKernels& k) : k_(k) { name_ = std::string("cpu-") + k_.isa; }
  const char* name() const override { return name_.c_str(); }

  void fill(float* dst, float value, size_t n) override {
    pool().parallel_for(static_cast<int64_t>(n), kFlatGrain,
                        [&](int64_t b, int64_t e) { std::fill(dst + b, dst + e, value); });
  }

  void gemm(const GemmArgs& g, const float* A, const float* B, float* C) override {
    k_.gemm(g, A, B, C, pool());
  }

  void binary_forward(BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb,
                      float* out, const Dims4& d) override {
    pool().parallel_for(rows_of(d), row_grain(d.size[3]),
                        [&](int64_t r0, int64_t r1) { k_.binary_rows(op, a, sa, b, sb, out, d, r0, r1); });
  }
  void scale(const float* x, float alpha, float* y, size_t n) override {
    flat(n, [&](size_t o, size_t m) { k_.scale(x + o, alpha, y + o, m); });
  }
  void axpy(float alpha, const float* x, float* y, size_t n) override {
    flat(n, [&](size_t o, size_t m) { k_.axpy(alpha, x + o, y + o, m); });
  }
  void mul_accumulate(const float* a, const float* b, float* y, size_t n) override {
    flat(n, [&](size_t o, size_t m) { k_.mul_accumulate(a + o, b + o, y + o, m); });
  }

  void sum(const float* x, size_t n, float* out) override {
    out[0] = static_cast<float>(chunked_sum(x, n, k_.sum));
  }
  void sum_squares(const float* x, size_t n, float* out) override {
    out[0] = static_cast<float>(chunked_sum(x, n, k_.sum_squares));
  }
  void sum_rows(const float* x, float* out, int64_t rows, int64_t cols, bool accumulate) override {
    // Columns are independent: each task owns a column range and walks every row in order.
    int64_t width = std::max<int64_t>(16, cols / std::max(1, pool().threads()));
    pool().parallel_for(cols, width,
                        [&](int64_t c0, int64_t c1) { k_.sum_rows(x, out, rows, cols, c0, c1, accumulate); });
  }
  bool all_finite(const float* x, size_t n) override { return k_.all_finite(x, n); }

  void copy_strided(const float* src, const Strides4& ss, float* dst, const Strides4& ds, const Dims4& d,
                    bool accumulate) override {
    bool dst_aliases = accumulate && (ds[0] == 0 || ds[1] == 0 || ds[2] == 0 || ds[3] == 0);
    if (dst_aliases) {  // several sources add into one destination: keep it serial and ordered
      k_.copy_strided_rows(src, ss, dst, ds, d, accumulate, 0, rows_of(d));
      return;
    }
    pool().parallel_for(rows_of(d), row_grain(d.size[3]), [&](int64_t r0, int64_t r1) {
      k_.copy_strided_rows(src, ss, dst, ds, d, accumulate, r0, r1);
    });
  }

  void layer_norm_forward(const float* x, const float* g, const float* b, float* y, float* mean, float* rstd,
                          int64_t rows, int64_t C, float eps) override {
    pool().parallel_for(rows, row_grain(C), [&](int64_t r0, int64_t r1) {
      k_.layer_norm_forward(x + r0 * C, g, b, y + r0 * C, mean + r0, rstd + r0, r1 - r0, C, eps);
    });
  }
  void layer_norm_backward(const float* dy, const float* x, const float* g, const float* mean,
                           const float* rstd, float* dx, float* dg, float* db, int64_t rows,
                           int64_t C) override {
    int64_t chunks = (rows + kNormChunk - 1) / kNormChunk;
    Scratch<> partial(static_cast<size_t>(chunks * 2 * C));
    std::fill(partial.get(), partial.get() + chunks * 2 * C, 0.f);
    pool().parallel_chunks(chunks, [&](int64_t c) {
      int64_t r0 = c * kNormChunk, r1 = std::min(rows, r0 + kNormChunk);
      float* pg = partial.get() + c * 2 * C;
      k_.layer_norm_backward(dy + r0 * C, x + r0 * C, g, mean + r0, rstd + r0, dx + r0 * C, pg, pg + C,
                             r1 - r0, C);
    });
    for (int64_t c = 0; c < chunks; ++c) {
      k_.axpy(1.f, partial.get() + c * 2 * C, dg, static_cast<size_t>(C));
      k_.axpy(1.f, partial.get() + c * 2 * C + C, db, static_cast<size_t>(C));
    }
  }

  void gelu_forward(const float* x, float* y, size_t n, GeluMode m) override {
    flat(n, [&](size_t o, size_t len) { k_.gelu_forward(x + o, y + o, len, m); });
  }
  void gelu_backward(const float* x, const float* dy, float* dx, size_t n, GeluMode m) override {
    flat(n, [&](size_t o, size_t len) { k_.gelu_backward(x + o, dy + o, dx + o, len, m); });
  }
  void softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) override {
    by_rows(rows, cols,
            [&](int64_t r0, int64_t n) { k_.softmax_forward(x + r0 * cols, y + r0 * cols, n, cols); });
  }
  void softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) override {
    by_rows(rows, cols, [&](int64_t r0, int64_t n) {
      k_.softmax_backward(y + r0 * cols, dy + r0 * cols, dx + r0 * cols, n, cols);
    });
  }
  void log_softmax_forward(const float* x, float* y, int64_t rows, int64_t cols) override {
    by_rows(rows, cols,
            [&](int64_t r0, int64_t n) { k_.log_softmax_forward(x + r0 * cols, y + r0 * cols, n, cols); });
  }
  void log_softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) override {
    by_rows(rows, cols, [&](int64_t r0, int64_t n) {
      k_.log_softmax_backward(y + r0 * cols, dy + r0 * cols, dx + r0 * cols, n, cols);
    });
  }
  void masked_fill(const float* x, const float* m, const Strides4& ms, float v, float* y,
                   const Dims4& d) override {
    pool().parallel_for(rows_of(d), row_grain(d.size[3]),
                        [&](int64_t r0, int64_t r1) { k_.masked_fill_rows(x, m, ms, v, y, d, r0, r1); });
  }
  void embedding_forward(const float* t, const int32_t* ids, float* out, int64_t n, int64_t C) override {
    by_rows(n, C, [&](int64_t r0, int64_t len) { k_.embedding_forward(t, ids + r0, out + r0 * C, len, C); });
  }
  void embedding_backward(const float* d, const int32_t* ids, float* dt, int64_t n, int64_t C) override {
    int64_t width = std::max<int64_t>(16, C / std::max(1, pool().threads()));
    pool().parallel_for(C, width,
                        [&](int64_t c0, int64_t c1) { k_.embedding_backward(d, ids, dt, n, C, c0, c1); });
  }
  void attention_forward(const AttentionArgs& a, const float* q, const float* k, const float* v, float* out,
                         float* w) override {
    pool().parallel_for(static_cast<int64_t>(a.B) * a.heads, 1,
                        [&](int64_t b0, int64_t b1) { k_.attention_forward(a, q, k, v, out, w, b0, b1); });
  }
  void attention_backward(const AttentionArgs& a, const float* q, const float* k, const float* v,
                          const float* w, const float* dout, float* dq, float* dk, float* dv) override {
    pool().parallel_for(static_cast<int64_t>(a.B) * a.heads, 1, [&](int64_t b0, int64_t b1) {
      k_.attention_backward(a, q, k, v, w, dout, dq, dk, dv, b0, b1);
    });
  }
  void cross_entropy_forward(const float* l, const int32_t* t, float* rows, float* lse, int64_t N,
                             int64_t V) override {
    by_rows(N, V, [&](int64_t r0, int64_t n) {
      k_.cross_entropy_forward(l + r0 * V, t + r0, rows + r0, lse + r0, n, V);
    });
  }
  void cross_entropy_backward(const float* l, const int32_t* t, const float* lse, const float* rs, float* dl,
                              int64_t N, int64_t V) override {
    by_rows(N, V, [&](int64_t r0, int64_t n) {
      k_.cross_entropy_backward(l + r0 * V, t + r0, lse + r0, rs + r0, dl + r0 * V, n, V);
    });
  }
  void rotary_forward(const float* x, float* y, int64_t B, int64_t T, int64_t cols, int64_t hd, int64_t rc,
                      int64_t off, bool inv) override {
    pool().parallel_for(B * T, row_grain(cols), [&](int64_t r0, int64_t r1) {
      k_.rotary_rows(x, y, T, cols, hd, rc, off, inv, r0, r1);
    });
  }
  void adam_step(float* p, const float* g, float* m, float* v, size_t n, const AdamArgs& a) override {
    flat(n, [&](size_t o, size_t len) { k_.adam_step(p + o, g + o, m + o, v + o, len, a); });
  }
  void sgd_step(float* p, const float* g, float* mom, size_t n, const SgdArgs& a) override {
    flat(n, [&](size_t o, size_t len) { k_.sgd_step(p + o, g + o, mom + o, len, a); });
  }

 private:
  static ThreadPool& pool() { return ThreadPool::instance(); }

  template <class F>
  static void flat(size_t n, F f) {
    pool().parallel_for(static_cast<int64_t>(n), kFlatGrain,
                        [&](int64_t b, int64_t e) { f(static_cast<size_t>(b), static_cast<size_t>(e - b)); });
  }
  template <class F>
  static void by_rows(int64_t rows, int64_t cols, F f) {
    pool().parallel_for(rows, row_grain(cols), [&](int64_t r0, int64_t r1) { f(r0, r1 - r0); });
  }
  double chunked_sum(const float* x, size_t n, double (*kernel)(const float*, size_t)) {
    int64_t chunks = (static_cast<int64_t>(n) + kReduceChunk - 1) / kReduceChunk;
    Scratch<double> partial(static_cast<size_t>(chunks));
    pool().parallel_chunks(chunks, [&](int64_t c) {
      size_t b = static_cast<size_t>(c * kReduceChunk),
             e = std::min(n, b + static_cast<size_t>(kReduceChunk));
      partial.get()[c] = kernel(x + b, e - b);
    });
    double s = 0;
    for (int64_t c = 0; c < chunks; ++c) s += partial.get()[c];
    return s;
  }

  const CpuKernels& k_;
  std::string name_;
};

}  // namespace

Backend& cpu_backend() {
  static CpuBackend backend(select_cpu_kernels());
  return backend;
}

std::unique_ptr<Backend> make_cpu_backend(const CpuKernels& kernels) {
  return std::make_unique<CpuBackend>(kernels);
}

}  // namespace tf
