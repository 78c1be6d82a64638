// Reshape (a view), permute/transpose, narrow, concat and split. All but reshape copy through the
// backend's strided copy, so every tensor stays contiguous and kernels only ever see plain rows.
#include <numeric>

#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

// Strides (in the 4-D kernel space) that read x's elements in the order of `order`.
Strides4 permuted_strides(const Shape& s, const std::vector<int>& order) {
  Dims4 d = dims4(s);
  Strides4 st = contiguous_strides(d);
  int nd = s.ndim(), pad = 4 - nd;
  Strides4 out{0, 0, 0, 0};
  for (int i = 0; i < nd; ++i)
    out[static_cast<size_t>(pad + i)] = st[static_cast<size_t>(pad + order[static_cast<size_t>(i)])];
  return out;
}

// Copies x[..., start:start+len, ...] (along axis) into or out of a contiguous block.
void copy_slab(const Tensor& whole, const Tensor& part, int axis, int64_t start, bool into_whole,
               bool accumulate) {
  Dims4 wd = dims4(whole.shape());
  Strides4 ws = contiguous_strides(wd);
  int a = 4 - whole.ndim() + axis;
  Dims4 pd = dims4(part.shape());
  float* wbase = whole.data() + start * ws[static_cast<size_t>(a)];
  if (part.numel() == 0) return;
  Backend& be = backend_of(whole);
  if (into_whole)
    be.copy_strided(part.data(), contiguous_strides(pd), wbase, ws, pd, accumulate);
  else
    be.copy_strided(wbase, ws, part.data(), contiguous_strides(pd), pd, accumulate);
}

}  // namespace

Tensor reshape(const Tensor& x, const Shape& shape) {
  TF_CHECK(shape.numel() == x.numel(), "cannot reshape ", x.shape().str(), " into ", shape.str());
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = x.impl()->storage;
  impl->offset = x.impl()->offset;
  impl->shape = shape;
  Tensor out(impl);
  Shape from = x.shape();
  record(out, "reshape", {x}, [from](const Tensor& g) -> std::vector<Tensor> { return {reshape(g, from)}; });
  return out;
}

Tensor permute(const Tensor& x, const std::vector<int>& order) {
  int nd = x.ndim();
  TF_CHECK(static_cast<int>(order.size()) == nd, "permute: ", order.size(), " axes for shape ",
           x.shape().str());
  std::vector<int> seen(static_cast<size_t>(nd), 0), inverse(static_cast<size_t>(nd));
  std::vector<int64_t> dims(static_cast<size_t>(nd));
  for (int i = 0; i < nd; ++i) {
    int a = x.shape().axis(order[static_cast<size_t>(i)]);
    TF_CHECK(!seen[static_cast<size_t>(a)]++, "permute: axis ", a, " repeated");
    dims[static_cast<size_t>(i)] = x.shape()[a];
    inverse[static_cast<size_t>(a)] = i;
  }
  std::vector<int> norm(static_cast<size_t>(nd));
  for (int i = 0; i < nd; ++i) norm[static_cast<size_t>(i)] = x.shape().axis(order[static_cast<size_t>(i)]);
  Tensor out = Tensor::empty(Shape(dims), x.device());
  Dims4 od = dims4(out.shape());
  if (out.numel() > 0)
    backend_of(x).copy_strided(x.data(), permuted_strides(x.shape(), norm), out.data(),
                               contiguous_strides(od), od, false);
  record(out, "permute", {x},
         [inverse](const Tensor& g) -> std::vector<Tensor> { return {permute(g, inverse)}; });
  return out;
}

Tensor transpose(const Tensor& x, int axis0, int axis1) {
  std::vector<int> order(static_cast<size_t>(x.ndim()));
  std::iota(order.begin(), order.end(), 0);
  std::swap(order[static_cast<size_t>(x.shape().axis(axis0))],
            order[static_cast<size_t>(x.shape().axis(axis1))]);
  return permute(x, order);
}

Tensor narrow(const Tensor& x, int axis, int64_t start, int64_t length) {
  int a = x.shape().axis(axis);
  TF_CHECK(start >= 0 && length >= 0 && start + length <= x.shape()[a], "narrow: [", start, ", ",
           start + length, ") is outside axis ", a, " of ", x.shape().str());
  Shape s = x.shape();
  s[a] = length;
  Tensor out = Tensor::empty(s, x.device());
  copy_slab(x, out, a, start, false, false);
  Shape full = x.shape();
  record(out, "narrow", {x}, [full, a, start](const Tensor& g) -> std::vector<Tensor> {
    Tensor dx = Tensor::zeros(full, g.device());
    copy_slab(dx, g, a, start, true, false);
    return {dx};
  });
  return out;
}

Tensor concat(const std::vector<Tensor>& parts, int axis) {
  TF_CHECK(!parts.empty(), "concat of no tensors");
  Shape s = parts[0].shape();
  int a = s.axis(axis);
  int64_t total = 0;
  for (const Tensor& p : parts) {
    TF_CHECK(p.ndim() == s.ndim() && p.device() == parts[0].device(), "concat: mismatched tensors");
    for (int i = 0; i < s.ndim(); ++i)
      TF_CHECK(i == a || p.shape()[i] == s[i], "concat: shape ", p.shape().str(), " does not fit ", s.str());
    total += p.shape()[a];
  }
  s[a] = total;
  Tensor out = Tensor::empty(s, parts[0].device());
  std::vector<int64_t> sizes;
  int64_t at = 0;
  for (const Tensor& p : parts) {
    copy_slab(out, p, a, at, true, false);
    sizes.push_back(p.shape()[a]);
    at += p.shape()[a];
  }
  record(out, "concat", parts, [a, sizes](const Tensor& g) { return split(g, a, sizes); });
  return out;
}

std::vector<Tensor> split(const Tensor& x, int axis, const std::vector<int64_t>& sizes) {
  int a = x.shape().axis(axis);
  int64_t total = std::accumulate(sizes.begin(), sizes.end(), int64_t{0});
  TF_CHECK(total == x.shape()[a], "split: sizes add up to ", total, " but axis ", a, " has ", x.shape()[a]);
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t n : sizes) {
    out.push_back(narrow(x, a, start, n));
    start += n;
  }
  return out;
}

}  // namespace tf
