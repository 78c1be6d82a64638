// Every kernel, declared once: TF_BACKEND_KERNELS lists each kernel's file stem, name and parameters, and
// everything else is generated from it — the Backend table (backend.hpp), each backend's declarations and
// table filling, and the op-consistency test's list of kernels. Kernels take raw device pointers and sizes,
// come as forward/backward pairs and know nothing of Tensor, autograd or allocation; matrices are row-major.
// A backend defines kernel NAME of stem STEM in its own <backend>/STEM file with exactly these parameters.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace tf {

// A 4-D index space and per-operand element strides; missing leading dims have size 1, a broadcast dim has
// stride 0. Shape-agnostic kernels (copy, broadcast arithmetic, masks) take these.
struct Dims4 {
  std::array<int64_t, 4> size{1, 1, 1, 1};
  int64_t numel() const { return size[0] * size[1] * size[2] * size[3]; }
};
using Strides4 = std::array<int64_t, 4>;

// C[b] = alpha * op(A[b]) * op(B[b]) + beta * C[b] for b < batch; op(X) = X or its transpose.
// op(A) is M x K, op(B) is K x N, C is M x N. ld* are row strides; stride_* are batch strides (0 = shared).
// With bias [N], beta scales that row broadcast over every row and item instead of C, and C is only
// written: a linear layer's product starts from its bias without a pass of its own.
struct GemmArgs {
  int batch = 1, M = 0, N = 0, K = 0;
  bool trans_a = false, trans_b = false;
  int64_t lda = 0, ldb = 0, ldc = 0;
  int64_t stride_a = 0, stride_b = 0, stride_c = 0;
  float alpha = 1.f, beta = 0.f;
  const float* bias = nullptr;
};

enum class BinaryOp { Add, Sub, Mul };
enum class GeluMode { Erf, Tanh };  // Erf = nn.GELU(); Tanh = nn.GELU(approximate="tanh") / GPT-2

// Fused multi-head scaled-dot-product attention over rows of width heads*D.
// q: [B, Tq, ...] with row stride q_row (head h occupies columns h*D .. h*D+D-1 of a row), k and v likewise
// with Tk rows. out: [B, Tq, heads*D] rows of stride out_row. weights: [B, heads, Tq, Tk] contiguous, always
// written (the backward pass and the attention views read them).
// Masks: causal lets query i see keys j <= i + q_offset; key_keep [B, Tk] (1 keep, 0 drop) drops padding
// columns. A row with no visible key gets zero weights and a zero output.
struct AttentionArgs {
  int B = 0, heads = 0, Tq = 0, Tk = 0, D = 0;
  int64_t q_row = 0, k_row = 0, v_row = 0, out_row = 0;
  bool causal = false;
  int q_offset = 0;
  float scale = 0.f;                // multiplies q.k; callers pass 1/sqrt(D) for the usual attention
  const float* key_keep = nullptr;  // optional [B, Tk]
};

// A training step's row of the step log, on the device: step_guard writes it from the step's loss and
// gradients, the optimizer kernels read its keep flag and clip coefficient (so a step decides on the
// device whether it updates), and the host reads the whole log once per chunk of steps.
enum StepLogColumn : int {
  kStepLoss = 0,  // loss * report_scale (the figure the course reports)
  kStepNorm,      // global 2-norm of the gradients before clipping; NaN when the loss is not finite
  kStepKeep,      // 1 when the loss and the norm are finite (the step updates), else 0
  kStepCoef,      // what the gradients are multiplied by before the update: the clip factor, or 1
  kStepLogWidth
};

// One optimizer step over a flat parameter buffer (PyTorch's formulas; see optim/). guard, when set, is a
// step-log row in device memory: the update runs only if its kStepKeep is non-zero, on grad * kStepCoef.
struct AdamArgs {
  float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, weight_decay = 0.f;
  bool decoupled = false;        // AdamW: p -= lr * wd * p before the Adam update
  float bias_correction1 = 1.f;  // 1 - beta1^t
  float bias_correction2 = 1.f;  // 1 - beta2^t
  const float* guard = nullptr;  // optional [kStepLogWidth] step-log row
};
struct SgdArgs {
  float lr = 1e-2f, momentum = 0.f, weight_decay = 0.f;
  bool first_step = true;        // PyTorch initialises the momentum buffer with the first gradient
  const float* guard = nullptr;  // optional [kStepLogWidth] step-log row, as in AdamArgs
};

}  // namespace tf

// How a backend holds its memory: not kernels (the host backends share host_memory.cpp, CUDA has
// cuda/device_memory.cu), but bound into the same table. Copies are memmove-like; copy is device to device.
// X(stem, return type, name, (parameters))
#define TF_BACKEND_MEMORY(X)                                                  \
  X(memory, void*, allocate, (size_t bytes))                                  \
  X(memory, void, deallocate, (void* p, size_t bytes))                        \
  X(memory, void, copy_from_host, (void* dst, const void* src, size_t bytes)) \
  X(memory, void, copy_to_host, (void* dst, const void* src, size_t bytes))   \
  X(memory, void, copy, (void* dst, const void* src, size_t bytes))           \
  X(memory, void, synchronize, ())

// The kernels, grouped by stem. X(stem, return type, name, (parameters))
#define TF_BACKEND_KERNELS(X)                                                                               \
  /* C = alpha op(A) op(B) + beta (C or bias); see GemmArgs */                                              \
  X(gemm, void, gemm, (const GemmArgs& args, const float* A, const float* B, float* C))                     \
  /* out = a (op) b with broadcasting given by strides over the index space dims */                         \
  X(elementwise, void, binary_forward,                                                                      \
    (BinaryOp op, const float* a, const Strides4& sa, const float* b, const Strides4& sb, float* out,       \
     const Dims4& dims))                                                                                    \
  X(elementwise, void, fill, (float* dst, float value, size_t n))                /* dst = value */          \
  X(elementwise, void, scale, (const float* x, float alpha, float* y, size_t n)) /* y = alpha * x */        \
  X(elementwise, void, axpy, (float alpha, const float* x, float* y, size_t n))  /* y += alpha * x */       \
  X(elementwise, void, mul_accumulate, (const float* a, const float* b, float* y, size_t n)) /* y += a b */ \
  X(reduce, void, sum, (const float* x, size_t n, float* out))         /* out[0] = sum x */                 \
  X(reduce, void, sum_squares, (const float* x, size_t n, float* out)) /* out[0] = sum x^2 */               \
  /* out[c] (+)= sum over r of x[r * cols + c]: the gradient of a broadcast bias */                         \
  X(reduce, void, sum_rows, (const float* x, float* out, int64_t rows, int64_t cols, bool accumulate))      \
  X(reduce, bool, all_finite, (const float* x, size_t n))                                                   \
  /* permutes, narrows, concatenations; accumulate adds into dst */                                         \
  X(copy_strided, void, copy_strided,                                                                       \
    (const float* src, const Strides4& src_strides, float* dst, const Strides4& dst_strides,                \
     const Dims4& dims, bool accumulate))                                                                   \
  /* y = (x - mean) * rstd * gamma + beta over the last dim C */                                            \
  X(layer_norm, void, layer_norm_forward,                                                                   \
    (const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,             \
     int64_t rows, int64_t C, float eps))                                                                   \
  /* dx is written; dgamma and dbeta are accumulated into */                                                \
  X(layer_norm, void, layer_norm_backward,                                                                  \
    (const float* dy, const float* x, const float* gamma, const float* mean, const float* rstd, float* dx,  \
     float* dgamma, float* dbeta, int64_t rows, int64_t C))                                                 \
  /* y = gelu(x); slope, when not null, gets dy/dx at x (the backward pass multiplies by it) */             \
  X(gelu, void, gelu_forward, (const float* x, float* y, float* slope, size_t n, GeluMode mode))            \
  /* softmax and log-softmax over the last dim */                                                           \
  X(softmax, void, softmax_forward, (const float* x, float* y, int64_t rows, int64_t cols))                 \
  X(softmax, void, softmax_backward,                                                                        \
    (const float* y, const float* dy, float* dx, int64_t rows, int64_t cols))                               \
  X(softmax, void, log_softmax_forward, (const float* x, float* y, int64_t rows, int64_t cols))             \
  X(softmax, void, log_softmax_backward,                                                                    \
    (const float* y, const float* dy, float* dx, int64_t rows, int64_t cols))                               \
  /* y = mask != 0 ? value : x, mask broadcast by strides */                                                \
  X(masked_fill, void, masked_fill,                                                                         \
    (const float* x, const float* mask, const Strides4& mask_strides, float value, float* y,                \
     const Dims4& dims))                                                                                    \
  /* out[i] = table[ids[i]]; backward scatter-adds into dtable. by_id: [n] the rows stably sorted by */     \
  /* id (ops' rows_by_id: a device adds each id's rows in order without atomics), null when no id */        \
  /* repeats; a backend may ignore it */                                                                    \
  X(embedding, void, embedding_forward,                                                                     \
    (const float* table, const int32_t* ids, float* out, int64_t n, int64_t C))                             \
  X(embedding, void, embedding_backward,                                                                    \
    (const float* dout, const int32_t* ids, const int32_t* by_id, float* dtable, int64_t n, int64_t C))     \
  /* see AttentionArgs; backward writes dq, dk, dv (same layouts as q, k, v; they may be column */          \
  /* ranges of one buffer, so each writes only its own columns) */                                          \
  X(attention, void, attention_forward,                                                                     \
    (const AttentionArgs& a, const float* q, const float* k, const float* v, float* out, float* weights))   \
  X(attention, void, attention_backward,                                                                    \
    (const AttentionArgs& a, const float* q, const float* k, const float* v, const float* weights,          \
     const float* dout, float* dq, float* dk, float* dv))                                                   \
  /* loss_rows[i] = logsumexp(logits[i]) - logits[i][target[i]]; where dunit is given, also */              \
  /* dunit[i] = softmax(logits[i]) - onehot(target[i]), the gradient of row i's loss, from the same */      \
  /* exponentials (the backward pass scales it by the row's weight) */                                      \
  X(cross_entropy, void, cross_entropy_forward,                                                             \
    (const float* logits, const int32_t* targets, float* loss_rows, float* dunit, int64_t N, int64_t V))    \
  /* rotates pairs (2i, 2i+1) of each head_dim-wide group among the first rotate_cols columns of */         \
  /* x [B, T, cols] by angle (pos_offset + t) * 10000^(-2i/head_dim); other columns are copied; */          \
  /* inverse rotates by the negative angle (the backward pass) */                                           \
  X(rotary, void, rotary_forward,                                                                           \
    (const float* x, float* y, int64_t B, int64_t T, int64_t cols, int64_t head_dim, int64_t rotate_cols,   \
     int64_t pos_offset, bool inverse))                                                                     \
  /* the step-log row out [kStepLogWidth] from the per-gradient sums of squares [n] and the loss [1]: */    \
  /* norm = sqrt of their sum (in double), keep, and coef = max_norm / (norm + 1e-6) when that is < 1 */    \
  /* and the norm finite, else 1 (max_norm = infinity: no clipping) */                                      \
  X(step_guard, void, step_guard,                                                                           \
    (const float* squares, size_t n, const float* loss, float report_scale, float max_norm, float* out))    \
  X(optimizer, void, adam_step,                                                                             \
    (float* param, const float* grad, float* m, float* v, size_t n, const AdamArgs& a))                     \
  X(optimizer, void, sgd_step, (float* param, const float* grad, float* momentum, size_t n, const SgdArgs& a))

// Declares every kernel (or memory entry) as a free function: `namespace tf::ref { TF_BACKEND_KERNELS(
// TF_DECLARE_KERNEL) }` makes a missing or mis-typed definition a link error instead of a silent gap.
#define TF_DECLARE_KERNEL(stem, ret, name, params) ret name params;
