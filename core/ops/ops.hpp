// The ops: Tensor in, Tensor out. Each checks shapes, allocates its output, calls the backend kernel and,
// when gradients are on, records a node whose backward calls the backward kernels (one file per op).
#pragma once
#include <vector>

#include "backend/backend.hpp"
#include "tensor/tensor.hpp"

namespace tf {

// ---- arithmetic.cpp: numpy broadcasting (shapes aligned from the right, size-1 dims stretch) ----
Tensor add(const Tensor& a, const Tensor& b);
Tensor sub(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor scale(const Tensor& x, float s);  // s * x
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& x, float s);
Tensor operator*(float s, const Tensor& x);

// ---- reduce.cpp ----
Tensor sum(const Tensor& x);   // scalar
Tensor mean(const Tensor& x);  // scalar

// ---- shape_ops.cpp ----
Tensor reshape(const Tensor& x, const Shape& shape);  // a view sharing storage
Tensor permute(const Tensor& x, const std::vector<int>& order);
Tensor transpose(const Tensor& x, int axis0, int axis1);
Tensor narrow(const Tensor& x, int axis, int64_t start, int64_t length);  // a copy of a slice
Tensor concat(const std::vector<Tensor>& parts, int axis);
std::vector<Tensor> split(const Tensor& x, int axis, const std::vector<int64_t>& sizes);

// ---- matmul.cpp ----
// a [..., M, K] times b [..., K, N] (either transposed by the flags). Leading dims must match, or b is 2-D
// and shared by every matrix of a.
Tensor matmul(const Tensor& a, const Tensor& b, bool trans_a = false, bool trans_b = false);
// x [..., in] times weight [out, in] transposed, plus bias [out] when defined (nn.Linear's layout).
Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias = Tensor());

// ---- embedding.cpp: table [V, C], ids of any shape -> [ids..., C] ----
Tensor embedding(const Tensor& table, const Ids& ids);
// Chosen rows of x [..., C] seen as a table [N, C]: rows [n] of flat positions -> [n, C] (an embedding
// lookup into x; the backward pass scatter-adds, so unchosen rows get a zero gradient).
Tensor pick_rows(const Tensor& x, const Ids& rows);

// ---- layer_norm.cpp: over the last dim, biased variance (nn.LayerNorm) ----
Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, float eps = 1e-5f);

// ---- gelu.cpp ----
Tensor gelu(const Tensor& x, GeluMode mode = GeluMode::Erf);

// ---- softmax.cpp: over the last dim ----
Tensor softmax(const Tensor& x);
Tensor log_softmax(const Tensor& x);

// ---- masked_fill.cpp: where mask (broadcast to x) is nonzero the result is value ----
Tensor masked_fill(const Tensor& x, const Tensor& mask, float value);
Tensor causal_mask(int64_t T, Device device = Device::CPU);  // [T, T], 1 above the diagonal (j > i)

// ---- attention.cpp ----
// A column range of a [B, T, width] tensor: lets attention read q, k and v straight out of one packed
// projection [B, T, 3C] without copies.
struct Cols {
  Tensor t;
  int64_t offset = 0, width = -1;            // width -1: all columns from offset
  Cols(const Tensor& tensor) : t(tensor) {}  // NOLINT: a whole tensor is a column range
  Cols(const Tensor& tensor, int64_t off, int64_t w) : t(tensor), offset(off), width(w) {}
  int64_t columns() const { return width < 0 ? t.size(t.ndim() - 1) - offset : width; }
};
struct AttentionOptions {
  bool causal = false;
  int q_offset = 0;   // absolute position of the first query (for a KV cache)
  Tensor key_keep;    // optional [B, Tk], 1 = attend, 0 = padding
  float scale = 0.f;  // 0 means 1/sqrt(head dim)
};
// Multi-head scaled-dot-product attention, all heads at once: out [B, Tq, C]. When weights is given it
// receives the attention weights [B, heads, Tq, Tk] (detached).
Tensor attention(const Cols& q, const Cols& k, const Cols& v, int heads, const AttentionOptions& options = {},
                 Tensor* weights = nullptr);

// ---- kv_cache.cpp: keys and values kept for incremental decoding (batch 1, outside autograd) ----
// Copies the column range `rows` [1, T, C] into cache [1, capacity, C] at rows [filled, filled + T), in
// place, and returns the filled part [1, filled + T, C] as a view sharing the cache's storage.
Tensor cache_append(const Tensor& cache, int64_t filled, const Cols& rows);

// ---- cross_entropy.cpp ----
// sum_i w_i * -log softmax(logits_i)[target_i] over rows i of logits [..., V]; weights [rows] (undefined:
// every row weighs 1/rows, i.e. the mean, as F.cross_entropy).
Tensor cross_entropy(const Tensor& logits, const Ids& targets, const Tensor& weights = Tensor());

// ---- positional.cpp ----
Tensor sinusoidal_encoding(int64_t n_pos, int64_t d, Device device = Device::CPU);  // [n_pos, d], constant
// Rotary position embedding on x [B, T, cols]: rotates each head_dim-wide group of the first rotate_cols
// columns by its position (pos_offset + t); rotate_cols -1 means all columns.
Tensor rotary(const Tensor& x, int64_t head_dim, int64_t rotate_cols = -1, int64_t pos_offset = 0);

// ---- checks.cpp ----
bool all_finite(const Tensor& x);
void check_finite(const Tensor& x, const char* what);  // throws tf::Error naming `what` on NaN or inf

}  // namespace tf
