// Tensor: float32, row-major, contiguous, up to four dimensions, on one device. Copies of a Tensor share
// the same numbers (like PyTorch); reshape views share storage; everything else makes a new tensor.
// A tensor that requires grad records how it was made (autograd/node.hpp) so backward() can run.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backend/device.hpp"
#include "tensor/shape.hpp"
#include "tensor/storage.hpp"

namespace tf {

struct Node;
struct TensorImpl;

class Tensor {
 public:
  Tensor() = default;  // an undefined tensor (no storage)
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  // ---- factories ----
  static Tensor empty(const Shape& shape, Device device = Device::CPU);
  static Tensor zeros(const Shape& shape, Device device = Device::CPU);
  static Tensor full(const Shape& shape, float value, Device device = Device::CPU);
  static Tensor ones(const Shape& shape, Device device = Device::CPU) { return full(shape, 1.f, device); }
  static Tensor from_vector(const std::vector<float>& values, const Shape& shape,
                            Device device = Device::CPU);
  static Tensor scalar(float value, Device device = Device::CPU) {
    return from_vector({value}, Shape{}, device);
  }

  // ---- what it is ----
  bool defined() const { return impl_ != nullptr; }
  const Shape& shape() const;
  int ndim() const { return shape().ndim(); }
  int64_t size(int axis) const { return shape()[axis]; }
  int64_t numel() const { return shape().numel(); }
  Device device() const;
  const std::string& name() const;
  Tensor& set_name(const std::string& name);

  // ---- numbers (device pointers; to_vector copies to the host) ----
  float* data() const;
  std::vector<float> to_vector() const;
  float item() const;  // the value of a one-element tensor
  Tensor to(Device device) const;
  Tensor clone() const;                     // a new tensor with a copy of the numbers, outside the graph
  void copy_from(const Tensor& src) const;  // same shape; overwrites this tensor's numbers in place
  void fill_(float value) const;

  // ---- autograd ----
  bool requires_grad() const;
  Tensor& set_requires_grad(bool on);
  bool is_leaf() const;
  Tensor grad() const;  // accumulated gradient of a leaf (undefined until a backward pass reaches it)
  void zero_grad() const;
  void set_grad(const Tensor& g) const;
  const std::shared_ptr<Node>& grad_fn() const;
  // Reverse-mode pass from this tensor: a scalar unless an explicit output gradient is given. Defined by
  // the engine (autograd/engine.cpp): autograd/ builds on tensor/, not the other way round.
  void backward() const;
  void backward(const Tensor& grad_output) const;
  // The same numbers, cut off from the graph (no grad_fn, no requires_grad).
  Tensor detach() const;

  TensorImpl* impl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }
  bool same(const Tensor& o) const { return impl_ == o.impl_; }

 private:
  std::shared_ptr<TensorImpl> impl_;
};

struct TensorImpl {
  std::shared_ptr<Storage> storage;
  int64_t offset = 0;  // in elements, for views
  Shape shape;
  bool requires_grad = false;
  std::shared_ptr<Node> grad_fn;     // how this tensor was made, when recorded
  std::shared_ptr<TensorImpl> grad;  // accumulated gradient of a leaf
  // A parameter's view of a flat gradient slab (optim/flat_slab.hpp), where the engine accumulates its
  // gradient; it holds zeros while grad is undefined.
  std::shared_ptr<TensorImpl> grad_home;
  std::string name;  // parameter name, e.g. "blocks.0.attention.qkv.weight"
};

// Host-side token ids with a shape, e.g. a (B, T) batch. Ops that read ids upload them when needed.
struct Ids {
  std::vector<int32_t> data;
  Shape shape;
  Ids() = default;
  Ids(std::vector<int32_t> values, const Shape& s);
  int64_t numel() const { return shape.numel(); }
  int32_t at(int64_t i) const { return data[static_cast<size_t>(i)]; }
};

}  // namespace tf
