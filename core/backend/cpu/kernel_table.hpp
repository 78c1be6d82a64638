// The CPU kernels of one instruction set, as a table of function pointers. Each kernel works on a range
// (rows, columns, batch-heads) so the CPU backend can spread ranges over threads without the kernels
// knowing about threads; reductions are split in fixed chunks so results never depend on the thread count.
// One table per instruction set (isa_<name>.cpp), chosen once at start-up (select_cpu_kernels).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.hpp"

namespace tf {

class ThreadPool;

struct CpuKernels {
  const char* isa = "";
  int simd_width = 1;  // floats per register

  // The whole GEMM (packing, blocking, threads) for this ISA.
  void (*gemm)(const GemmArgs& args, const float* A, const float* B, float* C, ThreadPool& pool) = nullptr;

  // Rows are the flattened leading three dims of the 4-D space; out (and y) are contiguous.
  void (*binary_rows)(BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb,
                      float* out, const Dims4& dims, int64_t row0, int64_t row1) = nullptr;
  void (*copy_strided_rows)(const float* src, const Strides4& ss, float* dst, const Strides4& ds,
                            const Dims4& dims, bool accumulate, int64_t row0, int64_t row1) = nullptr;
  void (*masked_fill_rows)(const float* x, const float* mask, const Strides4& ms, float value, float* y,
                           const Dims4& dims, int64_t row0, int64_t row1) = nullptr;

  void (*scale)(const float* x, float alpha, float* y, size_t n) = nullptr;
  void (*axpy)(float alpha, const float* x, float* y, size_t n) = nullptr;
  void (*mul_accumulate)(const float* a, const float* b, float* y, size_t n) = nullptr;
  double (*sum)(const float* x, size_t n) = nullptr;
  double (*sum_squares)(const float* x, size_t n) = nullptr;
  // out[c] (+)= sum over all rows of x[r, c], for c in [c0, c1).
  void (*sum_rows)(const float* x, float* out, int64_t rows, int64_t cols, int64_t c0, int64_t c1,
                   bool accumulate) = nullptr;
  bool (*all_finite)(const float* x, size_t n) = nullptr;

  void (*layer_norm_forward)(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                             float* rstd, int64_t rows, int64_t C, float eps) = nullptr;
  // dgamma and dbeta accumulate.
  void (*layer_norm_backward)(const float* dy, const float* x, const float* gamma, const float* mean,
                              const float* rstd, float* dx, float* dgamma, float* dbeta, int64_t rows,
                              int64_t C) = nullptr;
  void (*gelu_forward)(const float* x, float* y, size_t n, GeluMode mode) = nullptr;
  void (*gelu_backward)(const float* x, const float* dy, float* dx, size_t n, GeluMode mode) = nullptr;
  void (*softmax_forward)(const float* x, float* y, int64_t rows, int64_t cols) = nullptr;
  void (*softmax_backward)(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols) = nullptr;
  void (*log_softmax_forward)(const float* x, float* y, int64_t rows, int64_t cols) = nullptr;
  void (*log_softmax_backward)(const float* y, const float* dy, float* dx, int64_t rows,
                               int64_t cols) = nullptr;
  void (*embedding_forward)(const float* table, const int32_t* ids, float* out, int64_t n,
                            int64_t C) = nullptr;
  // Scatter-adds columns [c0, c1) of every row.
  void (*embedding_backward)(const float* dout, const int32_t* ids, float* dtable, int64_t n, int64_t C,
                             int64_t c0, int64_t c1) = nullptr;
  // Batch-head pairs bh in [bh0, bh1), bh = b * heads + h.
  void (*attention_forward)(const AttentionArgs& a, const float* q, const float* k, const float* v,
                            float* out, float* weights, int64_t bh0, int64_t bh1) = nullptr;
  void (*attention_backward)(const AttentionArgs& a, const float* q, const float* k, const float* v,
                             const float* weights, const float* dout, float* dq, float* dk, float* dv,
                             int64_t bh0, int64_t bh1) = nullptr;
  void (*cross_entropy_forward)(const float* logits, const int32_t* targets, float* loss_rows, float* lse,
                                int64_t N, int64_t V) = nullptr;
  void (*cross_entropy_backward)(const float* logits, const int32_t* targets, const float* lse,
                                 const float* row_scale, float* dlogits, int64_t N, int64_t V) = nullptr;
  // Rows r in [row0, row1) of x [B*T, cols]; the position of row r is pos_offset + r % T.
  void (*rotary_rows)(const float* x, float* y, int64_t T, int64_t cols, int64_t head_dim,
                      int64_t rotate_cols, int64_t pos_offset, bool inverse, int64_t row0,
                      int64_t row1) = nullptr;
  void (*adam_step)(float* param, const float* grad, float* m, float* v, size_t n,
                    const AdamArgs& a) = nullptr;
  void (*sgd_step)(float* param, const float* grad, float* momentum, size_t n, const SgdArgs& a) = nullptr;
};

// Every instruction set compiled into this binary that the processor supports, best first.
std::vector<const CpuKernels*> supported_cpu_kernels();
// The best of those, or the one named by TF_CPU_ISA (e.g. TF_CPU_ISA=sse4.1) when set.
const CpuKernels& select_cpu_kernels();
// A CPU backend over one kernel table (tests build one per instruction set; cpu_backend() uses the best).
std::unique_ptr<Backend> make_cpu_backend(const CpuKernels& kernels);

}  // namespace tf
