#include "ops/layout.hpp"

#include <algorithm>

#include "autograd/node.hpp"

#include "util/error.hpp"

namespace tf {

Dims4 dims4(const Shape& s) {
  Dims4 d;
  int nd = s.ndim();
  for (int i = 0; i < nd; ++i) d.size[static_cast<size_t>(4 - nd + i)] = s[i];
  return d;
}

Strides4 contiguous_strides(const Dims4& d) {
  Strides4 st{};
  int64_t s = 1;
  for (int i = 3; i >= 0; --i) {
    st[static_cast<size_t>(i)] = s;
    s *= d.size[static_cast<size_t>(i)];
  }
  return st;
}

Strides4 broadcast_strides(const Shape& operand, const Dims4& out) {
  Dims4 od = dims4(operand);
  Strides4 st = contiguous_strides(od);
  for (size_t i = 0; i < 4; ++i) {
    if (od.size[i] == 1 && out.size[i] != 1) st[i] = 0;
  }
  return st;
}

Shape broadcast_shape(const Shape& a, const Shape& b) {
  int nd = std::max(a.ndim(), b.ndim());
  std::vector<int64_t> out(static_cast<size_t>(nd));
  for (int i = 0; i < nd; ++i) {
    int ia = a.ndim() - nd + i, ib = b.ndim() - nd + i;
    int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    TF_CHECK(da == db || da == 1 || db == 1, "shapes ", a.str(), " and ", b.str(), " do not broadcast");
    out[static_cast<size_t>(i)] = da == 1 ? db : da;
  }
  return Shape(out);
}

Tensor reduce_to_shape(const Tensor& g, const Shape& target) {
  if (g.shape() == target) return g;
  Backend& be = backend_of(g);
  // Common case: target is a suffix of g's shape (a bias or a position table): one column sum.
  int nd = target.ndim();
  bool suffix = nd <= g.ndim() && g.numel() > 0;
  for (int i = 0; suffix && i < nd; ++i) suffix = target[i] == g.shape()[g.ndim() - nd + i];
  if (suffix) {
    Tensor out = Tensor::empty(target, g.device());
    int64_t cols = target.numel();
    be.sum_rows(g.data(), out.data(), g.numel() / std::max<int64_t>(cols, 1), cols, false);
    return out;
  }
  Tensor out = Tensor::zeros(target, g.device());
  Dims4 d = dims4(g.shape());
  be.copy_strided(g.data(), contiguous_strides(d), out.data(), broadcast_strides(target, d), d, true);
  return out;
}

Tensor expand_scalar(const Tensor& s, const Shape& shape) {
  TF_CHECK(s.numel() == 1, "expand_scalar needs one element");
  Tensor out = Tensor::empty(shape, s.device());
  Dims4 d = dims4(shape);
  backend_of(s).copy_strided(s.data(), Strides4{0, 0, 0, 0}, out.data(), contiguous_strides(d), d, false);
  return out;
}

DeviceIds::DeviceIds(const Ids& ids, Device device) : device_(device) {
  if (device == Device::CPU) {
    ptr_ = ids.data.data();
    return;
  }
  bytes_ = ids.data.size() * sizeof(int32_t);
  if (bytes_ == 0) return;
  Backend& be = backend_for(device);
  owned_ = static_cast<int32_t*>(be.allocate(bytes_));
  be.copy_from_host(owned_, ids.data.data(), bytes_);
  ptr_ = owned_;
}

DeviceIds::~DeviceIds() {
  if (owned_) backend_for(device_).deallocate(owned_, bytes_);
}

GradBuffer grad_buffer(size_t input, const Shape& shape, Device device, bool zeroed) {
  Tensor sink = gradient_sink(input);
  if (sink.defined()) return {sink, true};
  return {zeroed ? Tensor::zeros(shape, device) : Tensor::empty(shape, device), false};
}

void check_ids(const Ids& ids, int64_t limit, const char* what) {
  for (size_t i = 0; i < ids.data.size(); ++i) {
    int32_t id = ids.data[i];
    TF_CHECK(id >= 0 && id < limit, what, ": id ", id, " at position ", i, " is outside [0, ", limit, ")");
  }
}

Ids rows_by_id(const Ids& ids, int64_t limit) {
  std::vector<int32_t> start(static_cast<size_t>(limit) + 1, 0);  // start[id + 1]: how many have that id
  bool repeats = false;
  for (int32_t id : ids.data) repeats |= ++start[static_cast<size_t>(id) + 1] > 1;
  if (!repeats) return Ids({}, Shape{0});
  for (size_t v = 1; v < start.size(); ++v) start[v] += start[v - 1];
  std::vector<int32_t> rows(ids.data.size());
  for (size_t i = 0; i < rows.size(); ++i)
    rows[static_cast<size_t>(start[static_cast<size_t>(ids.data[i])]++)] = static_cast<int32_t>(i);
  return Ids(std::move(rows), Shape{ids.numel()});
}

}  // namespace tf
