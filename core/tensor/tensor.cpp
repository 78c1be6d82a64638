#include "tensor/tensor.hpp"

#include <cstdint>

#include "backend/backend.hpp"
#include "util/error.hpp"

namespace tf {

namespace {
const Shape kNoShape;
const std::string kNoName;

std::shared_ptr<TensorImpl> new_impl(const Shape& shape, Device device) {
  // In wasm (32-bit size_t) a big enough shape would wrap the byte count around to a small allocation.
  TF_CHECK(static_cast<uint64_t>(shape.numel()) <= SIZE_MAX / sizeof(float),
           "out of memory: a tensor of shape ", shape.str(), " needs more bytes than this build can address");
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::make_shared<Storage>(device, static_cast<size_t>(shape.numel()));
  impl->shape = shape;
  return impl;
}

void check_defined(const TensorImpl* impl) { TF_CHECK(impl != nullptr, "use of an undefined tensor"); }
}  // namespace

Ids::Ids(std::vector<int32_t> values, const Shape& s) : data(std::move(values)), shape(s) {
  TF_CHECK(static_cast<int64_t>(data.size()) == shape.numel(), "ids: ", data.size(), " values for shape ",
           shape.str());
}

Tensor Tensor::empty(const Shape& shape, Device device) { return Tensor(new_impl(shape, device)); }

Tensor Tensor::zeros(const Shape& shape, Device device) { return full(shape, 0.f, device); }

Tensor Tensor::full(const Shape& shape, float value, Device device) {
  Tensor t = empty(shape, device);
  t.fill_(value);
  return t;
}

Tensor Tensor::from_vector(const std::vector<float>& values, const Shape& shape, Device device) {
  TF_CHECK(static_cast<int64_t>(values.size()) == shape.numel(), "from_vector: ", values.size(),
           " values for shape ", shape.str());
  Tensor t = empty(shape, device);
  if (!values.empty())
    backend_for(device).copy_from_host(t.data(), values.data(), values.size() * sizeof(float));
  return t;
}

const Shape& Tensor::shape() const { return impl_ ? impl_->shape : kNoShape; }

Device Tensor::device() const {
  check_defined(impl_.get());
  return impl_->storage->device();
}

const std::string& Tensor::name() const { return impl_ ? impl_->name : kNoName; }

Tensor& Tensor::set_name(const std::string& name) {
  check_defined(impl_.get());
  impl_->name = name;
  return *this;
}

float* Tensor::data() const {
  check_defined(impl_.get());
  return impl_->storage->data() ? impl_->storage->data() + impl_->offset : nullptr;
}

std::vector<float> Tensor::to_vector() const {
  check_defined(impl_.get());
  std::vector<float> out(static_cast<size_t>(numel()));
  if (!out.empty()) backend_for(device()).copy_to_host(out.data(), data(), out.size() * sizeof(float));
  return out;
}

float Tensor::item() const {
  TF_CHECK(numel() == 1, "item() needs a one-element tensor, got shape ", shape().str());
  return to_vector()[0];
}

Tensor Tensor::to(Device target) const {
  check_defined(impl_.get());
  if (target == device()) return *this;
  Tensor t = empty(shape(), target);
  size_t bytes = static_cast<size_t>(numel()) * sizeof(float);
  if (bytes == 0) return t;
  if (device() == Device::CPU) {
    backend_for(target).copy_from_host(t.data(), data(), bytes);
  } else if (target == Device::CPU) {
    backend_for(device()).copy_to_host(t.data(), data(), bytes);
  } else {
    fail("no copy path from ", device_name(device()), " to ", device_name(target));
  }
  return t;
}

Tensor Tensor::clone() const {
  Tensor t = empty(shape(), device());
  t.copy_from(*this);
  return t;
}

void Tensor::copy_from(const Tensor& src) const {
  TF_CHECK(src.shape() == shape(), "copy_from: shape ", src.shape().str(), " into ", shape().str());
  TF_CHECK(src.device() == device(), "copy_from: tensors on different devices");
  if (numel() > 0)
    backend_for(device()).copy(data(), src.data(), static_cast<size_t>(numel()) * sizeof(float));
}

void Tensor::fill_(float value) const {
  if (numel() > 0) backend_for(device()).fill(data(), value, static_cast<size_t>(numel()));
}

bool Tensor::requires_grad() const { return impl_ && impl_->requires_grad; }

Tensor& Tensor::set_requires_grad(bool on) {
  check_defined(impl_.get());
  TF_CHECK(!impl_->grad_fn || on, "cannot turn off requires_grad of a tensor made by an op; use detach()");
  impl_->requires_grad = on;
  return *this;
}

bool Tensor::is_leaf() const { return impl_ && !impl_->grad_fn; }

Tensor Tensor::grad() const { return impl_ && impl_->grad ? Tensor(impl_->grad) : Tensor(); }

void Tensor::zero_grad() const {
  if (impl_ && impl_->grad) Tensor(impl_->grad).fill_(0.f);
}

void Tensor::set_grad(const Tensor& g) const {
  check_defined(impl_.get());
  TF_CHECK(!g.defined() || g.shape() == shape(), "set_grad: shape ", g.shape().str(), " for ", shape().str());
  if (impl_->grad && impl_->grad == impl_->grad_home && g.impl_ptr() != impl_->grad)
    Tensor(impl_->grad_home).fill_(0.f);  // a home holds zeros while it is not the gradient
  impl_->grad = g.impl_ptr();
}

const std::shared_ptr<Node>& Tensor::grad_fn() const {
  static const std::shared_ptr<Node> none;
  return impl_ ? impl_->grad_fn : none;
}

Tensor Tensor::detach() const {
  check_defined(impl_.get());
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = impl_->storage;
  impl->offset = impl_->offset;
  impl->shape = impl_->shape;
  return Tensor(impl);
}

}  // namespace tf
