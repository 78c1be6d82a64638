// Scalar reference kernels: the readable oracle that the op-consistency table holds the SIMD and CUDA
// kernels to. Same stems and signatures as backend.hpp; accumulation in double; no threads.
#pragma once
#include "backend/backend.hpp"

namespace tf::ref {

void gemm(const GemmArgs& args, const float* A, const float* B, float* C);
void binary_forward(BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb,
                    float* out, const Dims4& dims);
void scale(const float* x, float alpha, float* y, size_t n);
void axpy(float alpha, const float* x, float* y, size_t n);
void mul_accumulate(const float* a, const float* b, float* y, size_t n);
void sum(const float* x, size_t n, float* out);
void sum_squares(const float* x, size_t n, float* out);
void sum_rows(const float* x, float* out, int64_t rows, int64_t cols, bool accumulate);
bool all_finite(const float* x, size_t n);
void copy_strided(const float* src, const Strides4& ss, float* dst, const Strides4& ds, const Dims4& dims,
                  bool accumulate);
void layer_norm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                        float* rstd, int64_t rows, int64_t C, float eps);
void layer_norm_backward(const float* dy, const float* x, const float* gamma, const float* mean,
                         const float* rstd, float* dx, float* dgamma, float* dbeta, int64_t rows, int64_t C);
void gelu_forward(const float* x, float* y, size_t n, GeluMode mode);
void gelu_backward(const float* x, const float* dy, float* dx, size_t n, GeluMode mode);
void softmax_forward(const float* x, float* y, int64_t rows, int64_t cols);
void softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols);
void log_softmax_forward(const float* x, float* y, int64_t rows, int64_t cols);
void log_softmax_backward(const float* y, const float* dy, float* dx, int64_t rows, int64_t cols);
void masked_fill(const float* x, const float* mask, const Strides4& ms, float value, float* y,
                 const Dims4& dims);
void embedding_forward(const float* table, const int32_t* ids, float* out, int64_t n, int64_t C);
void embedding_backward(const float* dout, const int32_t* ids, float* dtable, int64_t n, int64_t C);
void attention_forward(const AttentionArgs& a, const float* q, const float* k, const float* v, float* out,
                       float* weights);
void attention_backward(const AttentionArgs& a, const float* q, const float* k, const float* v,
                        const float* weights, const float* dout, float* dq, float* dk, float* dv);
void cross_entropy_forward(const float* logits, const int32_t* targets, float* loss_rows, float* lse,
                           int64_t N, int64_t V);
void cross_entropy_backward(const float* logits, const int32_t* targets, const float* lse,
                            const float* row_scale, float* dlogits, int64_t N, int64_t V);
void rotary_forward(const float* x, float* y, int64_t B, int64_t T, int64_t cols, int64_t head_dim,
                    int64_t rotate_cols, int64_t pos_offset, bool inverse);
void adam_step(float* param, const float* grad, float* m, float* v, size_t n, const AdamArgs& a);
void sgd_step(float* param, const float* grad, float* momentum, size_t n, const SgdArgs& a);

// Whether key j is visible to query i of batch b under the masks of a (shared with the fast kernels).
inline bool attention_visible(const AttentionArgs& a, int b, int i, int j) {
  if (a.causal && j > i + a.q_offset) return false;
  return !a.key_keep || a.key_keep[static_cast<int64_t>(b) * a.Tk + j] != 0.f;
}

}  // namespace tf::ref
