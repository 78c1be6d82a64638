// add, sub, mul with numpy broadcasting, and scaling by a constant.
#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

Tensor binary(BinaryOp op, const Tensor& a, const Tensor& b) {
  TF_CHECK(a.device() == b.device(), "arithmetic on tensors on different devices");
  Shape out_shape = broadcast_shape(a.shape(), b.shape());
  Tensor out = Tensor::empty(out_shape, a.device());
  Dims4 d = dims4(out_shape);
  if (out.numel() > 0)
    backend_of(a).binary_forward(op, a.data(), broadcast_strides(a.shape(), d), b.data(),
                                 broadcast_strides(b.shape(), d), out.data(), d);
  return out;
}

}  // namespace

Tensor add(const Tensor& a, const Tensor& b) {
  Tensor out = binary(BinaryOp::Add, a, b);
  Shape sa = a.shape(), sb = b.shape();
  record(out, "add", {a, b}, [sa, sb](const Tensor& g) -> std::vector<Tensor> {
    return {reduce_to_shape(g, sa), reduce_to_shape(g, sb)};
  });
  return out;
}

Tensor sub(const Tensor& a, const Tensor& b) {
  Tensor out = binary(BinaryOp::Sub, a, b);
  Shape sa = a.shape(), sb = b.shape();
  record(out, "sub", {a, b}, [sa, sb](const Tensor& g) -> std::vector<Tensor> {
    return {reduce_to_shape(g, sa), reduce_to_shape(scale(g, -1.f), sb)};
  });
  return out;
}

Tensor mul(const Tensor& a, const Tensor& b) {
  Tensor out = binary(BinaryOp::Mul, a, b);
  Tensor sa = a.detach(), sb = b.detach();
  bool ga = a.requires_grad(), gb = b.requires_grad();
  record(out, "mul", {a, b}, [sa, sb, ga, gb](const Tensor& g) -> std::vector<Tensor> {
    return {ga ? reduce_to_shape(binary(BinaryOp::Mul, g, sb), sa.shape()) : Tensor(),
            gb ? reduce_to_shape(binary(BinaryOp::Mul, g, sa), sb.shape()) : Tensor()};
  });
  return out;
}

Tensor scale(const Tensor& x, float s) {
  Tensor out = Tensor::empty(x.shape(), x.device());
  if (out.numel() > 0) backend_of(x).scale(x.data(), s, out.data(), count(x));
  record(out, "scale", {x}, [s](const Tensor& g) -> std::vector<Tensor> { return {scale(g, s)}; });
  return out;
}

Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
Tensor operator*(const Tensor& x, float s) { return scale(x, s); }
Tensor operator*(float s, const Tensor& x) { return scale(x, s); }

}  // namespace tf
