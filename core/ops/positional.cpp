// Positions: the sinusoidal table of page 000 (a constant) and the rotary embedding of TinyDenoiser.
#include <cmath>

#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

Tensor sinusoidal_encoding(int64_t n_pos, int64_t d, Device device) {
  TF_CHECK(n_pos >= 0 && d > 0, "sinusoidal_encoding: bad size ", n_pos, " x ", d);
  std::vector<float> pe(static_cast<size_t>(n_pos * d), 0.f);
  for (int64_t p = 0; p < n_pos; ++p) {
    for (int64_t i = 0; i < d; i += 2) {
      double angle =
          static_cast<double>(p) / std::pow(10000.0, static_cast<double>(i) / static_cast<double>(d));
      pe[static_cast<size_t>(p * d + i)] = static_cast<float>(std::sin(angle));
      if (i + 1 < d) pe[static_cast<size_t>(p * d + i + 1)] = static_cast<float>(std::cos(angle));
    }
  }
  return Tensor::from_vector(pe, Shape{n_pos, d}, device);
}

namespace {
Tensor rotate(const Tensor& x, int64_t head_dim, int64_t rotate_cols, int64_t pos_offset, bool inverse) {
  Tensor y = Tensor::empty(x.shape(), x.device());
  if (y.numel() > 0)
    backend_of(x).rotary_forward(x.data(), y.data(), x.size(0), x.size(1), x.size(2), head_dim, rotate_cols,
                                 pos_offset, inverse);
  return y;
}
}  // namespace

Tensor rotary(const Tensor& x, int64_t head_dim, int64_t rotate_cols, int64_t pos_offset) {
  TF_CHECK(x.ndim() == 3, "rotary: x must be [B, T, cols], got ", x.shape().str());
  if (rotate_cols < 0) rotate_cols = x.size(2);
  TF_CHECK(head_dim > 0 && head_dim % 2 == 0, "rotary: head_dim must be even, got ", head_dim);
  TF_CHECK(rotate_cols <= x.size(2) && rotate_cols % head_dim == 0, "rotary: ", rotate_cols,
           " rotated columns are not whole heads of ", head_dim, " within ", x.size(2));
  Tensor y = rotate(x, head_dim, rotate_cols, pos_offset, false);
  record(y, "rotary", {x}, [head_dim, rotate_cols, pos_offset](const Tensor& g) -> std::vector<Tensor> {
    return {rotate(g, head_dim, rotate_cols, pos_offset, true)};
  });
  return y;
}

}  // namespace tf
