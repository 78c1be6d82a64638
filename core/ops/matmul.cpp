// Batched matrix products and nn.Linear. Transposes are flags to the GEMM kernel, never copies.
#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

struct MatDims {
  int64_t batch, rows, cols;  // of the stored matrices
};

MatDims mat_dims(const Tensor& t, const char* what) {
  TF_CHECK(t.ndim() >= 2, "matmul: ", what, " needs at least 2 dims, got ", t.shape().str());
  return {t.numel() / (t.size(-1) * t.size(-2)), t.size(-2), t.size(-1)};
}

// C = op(A) op(B) over `batch` matrices, plus the bias row when given, or plus C when accumulating;
// b_shared: one B for every A.
void gemm_into(const Tensor& A, bool ta, const Tensor& B, bool tb, const Tensor& C, int64_t batch,
               bool b_shared, const Tensor& bias = Tensor(), bool accumulate = false) {
  MatDims a = mat_dims(A, "a"), b = mat_dims(B, "b"), c = mat_dims(C, "c");
  GemmArgs g;
  g.batch = static_cast<int>(batch);
  g.M = static_cast<int>(c.rows);
  g.N = static_cast<int>(c.cols);
  g.K = static_cast<int>(ta ? a.rows : a.cols);
  g.trans_a = ta;
  g.trans_b = tb;
  g.lda = a.cols;
  g.ldb = b.cols;
  g.ldc = c.cols;
  g.stride_a = a.rows * a.cols;
  g.stride_b = b_shared ? 0 : b.rows * b.cols;
  g.stride_c = c.rows * c.cols;
  g.beta = bias.defined() || accumulate ? 1.f : 0.f;
  g.bias = bias.defined() ? bias.data() : nullptr;
  if (c.rows * c.cols * batch == 0) return;
  add_flops(static_cast<uint64_t>(2) * static_cast<uint64_t>(batch) * static_cast<uint64_t>(g.M) *
            static_cast<uint64_t>(g.N) * static_cast<uint64_t>(g.K));
  backend_of(C).gemm(g, A.data(), B.data(), C.data());
}

// Gradient of a 2-D B shared by a batch of A's: one GEMM over A's rows stacked (A is not transposed).
void shared_b_grad(const Tensor& A, const Tensor& G, bool tb, const GradBuffer& dB) {
  Tensor a2 = reshape(A, Shape{A.numel() / A.size(-1), A.size(-1)});
  Tensor g2 = reshape(G, Shape{G.numel() / G.size(-1), G.size(-1)});
  if (tb)
    gemm_into(g2, true, a2, false, dB.t, 1, false, Tensor(), dB.accumulate);
  else
    gemm_into(a2, true, g2, false, dB.t, 1, false, Tensor(), dB.accumulate);
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b, bool trans_a, bool trans_b) {
  TF_CHECK(a.device() == b.device(), "matmul: tensors on different devices");
  MatDims da = mat_dims(a, "a"), db = mat_dims(b, "b");
  int64_t M = trans_a ? da.cols : da.rows, K = trans_a ? da.rows : da.cols;
  int64_t Kb = trans_b ? db.cols : db.rows, N = trans_b ? db.rows : db.cols;
  TF_CHECK(K == Kb, "matmul: inner sizes differ, ", a.shape().str(), (trans_a ? "^T" : ""), " x ",
           b.shape().str(), (trans_b ? "^T" : ""));
  bool b_shared = b.ndim() == 2 && a.ndim() > 2;
  TF_CHECK(!(b_shared && trans_a), "matmul: a shared 2-D b needs an untransposed a");
  TF_CHECK(b_shared || a.ndim() == b.ndim(), "matmul: batch dims of ", a.shape().str(), " and ",
           b.shape().str(), " differ");
  for (int i = 0; !b_shared && i < a.ndim() - 2; ++i)
    TF_CHECK(a.shape()[i] == b.shape()[i], "matmul: batch dims of ", a.shape().str(), " and ",
             b.shape().str(), " differ");
  Shape s = a.shape();
  s[-2] = M;
  s[-1] = N;
  Tensor out = Tensor::empty(s, a.device());
  gemm_into(a, trans_a, b, trans_b, out, da.batch, b_shared);
  Tensor sa = a.detach(), sb = b.detach();
  bool ga = a.requires_grad(), gb = b.requires_grad();
  int64_t batch = da.batch;
  record(out, "matmul", {a, b}, [=](const Tensor& g) -> std::vector<Tensor> {
    Tensor dA, dB;
    if (ga) {
      dA = Tensor::empty(sa.shape(), g.device());
      if (!trans_a)
        gemm_into(g, false, sb, !trans_b, dA, batch, b_shared);
      else
        gemm_into(sb, trans_b, g, true, dA, batch, false);
    }
    if (gb) {
      GradBuffer b = grad_buffer(1, sb.shape(), g.device(), false);  // a weight's gradient home, or new
      if (b_shared)
        shared_b_grad(sa, g, trans_b, b);
      else if (!trans_b)
        gemm_into(sa, !trans_a, g, false, b.t, batch, false, Tensor(), b.accumulate);
      else
        gemm_into(g, true, sa, trans_a, b.t, batch, false, Tensor(), b.accumulate);
      dB = b.t;
    }
    return {dA, dB};
  });
  return out;
}

// y = x W^T + b as one GEMM: the bias rows are written into y first and the GEMM adds onto them (beta 1),
// so no separate broadcast add (another [rows, out] pass and buffer) runs forward or backward.
Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias) {
  TF_CHECK(weight.ndim() == 2, "linear: weight must be [out, in], got ", weight.shape().str());
  TF_CHECK(x.size(-1) == weight.size(1), "linear: input has ", x.size(-1), " features, weight expects ",
           weight.size(1));
  int64_t rows = x.numel() / x.size(-1), out_f = weight.size(0);
  Tensor x2 = reshape(x, Shape{rows, x.size(-1)});
  Shape s = x.shape();
  s[-1] = out_f;
  if (!bias.defined()) return reshape(matmul(x2, weight, false, true), s);
  TF_CHECK(bias.ndim() == 1 && bias.size(0) == out_f, "linear: bias must be [", out_f, "], got ",
           bias.shape().str());
  TF_CHECK(bias.device() == x.device() && weight.device() == x.device(),
           "linear: tensors on different devices");
  Tensor y = Tensor::empty(Shape{rows, out_f}, x.device());  // [rows, out]: the product starts from bias
  gemm_into(x2, false, weight, true, y, 1, false, bias);
  Tensor sx = x2.detach(), sw = weight.detach();
  bool gx = x.requires_grad(), gw = weight.requires_grad(), gbias = bias.requires_grad();
  record(y, "linear", {x2, weight, bias}, [=](const Tensor& g) -> std::vector<Tensor> {
    Tensor dx, dw, db;
    if (gx) {
      dx = Tensor::empty(sx.shape(), g.device());  // [rows, in] = g [rows, out] W [out, in]
      gemm_into(g, false, sw, false, dx, 1, false);
    }
    if (gw) {
      GradBuffer w = grad_buffer(1, sw.shape(), g.device(), false);  // [out, in] (+)= g^T x
      gemm_into(g, true, sx, false, w.t, 1, false, Tensor(), w.accumulate);
      dw = w.t;
    }
    if (gbias) {
      GradBuffer b = grad_buffer(2, Shape{out_f}, g.device(), rows == 0);  // (+)= column sums of g
      if (rows > 0) backend_of(g).sum_rows(g.data(), b.t.data(), rows, out_f, b.accumulate);
      db = b.t;
    }
    return {dx, dw, db};
  });
  return reshape(y, s);
}

}  // namespace tf
