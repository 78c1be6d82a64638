#include "interp/rollout.hpp"

#include "autograd/node.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

Tensor head_mean(const Tensor& w, int64_t b) {
  TF_CHECK(w.ndim() == 4, "attention weights must be [B, heads, T, S], got ", w.shape().str());
  TF_CHECK(b >= 0 && b < w.size(0), "sample ", b, " is outside the batch of ", w.size(0));
  NoGrad no_grad;
  int64_t H = w.size(1), T = w.size(2), S = w.size(3);
  Tensor one = reshape(narrow(w, 0, b, 1), Shape{H, T * S});
  Tensor ones = Tensor::full(Shape{1, H}, 1.f / static_cast<float>(H), w.device());
  return reshape(matmul(ones, one), Shape{T, S});
}

Tensor attention_rollout(const std::vector<Tensor>& layers, int64_t b) {
  TF_CHECK(!layers.empty(), "rollout needs at least one layer");
  NoGrad no_grad;
  int64_t T = layers.front().size(2);
  std::vector<float> eye(static_cast<size_t>(T * T), 0.f);
  for (int64_t i = 0; i < T; ++i) eye[static_cast<size_t>(i * T + i)] = 1.f;
  Tensor I = Tensor::from_vector(eye, Shape{T, T}, layers.front().device());
  Tensor R = I;
  for (const Tensor& w : layers) {
    TF_CHECK(w.size(2) == T && w.size(3) == T, "rollout needs square self-attention maps, got ",
             w.shape().str());
    Tensor a = add(scale(head_mean(w, b), 0.5f), scale(I, 0.5f));
    std::vector<float> v =
        a.to_vector();  // rows sum to one again (a row of A may sum to 0 when fully masked)
    for (int64_t i = 0; i < T; ++i) {
      double s = 0;
      for (int64_t j = 0; j < T; ++j) s += v[static_cast<size_t>(i * T + j)];
      for (int64_t j = 0; j < T; ++j)
        v[static_cast<size_t>(i * T + j)] = static_cast<float>(v[static_cast<size_t>(i * T + j)] / s);
    }
    R = matmul(Tensor::from_vector(v, Shape{T, T}, w.device()), R);
  }
  return R;
}

}  // namespace tf
