// Making the slabs: the parameters' numbers are copied into one storage once and each parameter's
// TensorImpl is pointed at its range (as Module::to repoints them), so every holder of a parameter follows.
#include "optim/flat_slab.hpp"

namespace tf {

namespace {

int64_t aligned(int64_t n) {
  return (n + FlatSlab::kSlabAlign - 1) / FlatSlab::kSlabAlign * FlatSlab::kSlabAlign;
}

// A parameter that is its storage's only tensor from its start (not a view that another tensor shares).
bool owns_storage(const Tensor& t) {
  return t.impl()->offset == 0 && t.impl()->storage->numel() == static_cast<size_t>(t.numel());
}

}  // namespace

std::unique_ptr<FlatSlab> FlatSlab::make(const NamedTensors& params) {
  if (params.empty()) return nullptr;
  Device device = params.front().second.device();
  std::vector<int64_t> offsets;
  int64_t numel = 0;
  for (const auto& [name, p] : params) {
    if (p.device() != device || !owns_storage(p)) return nullptr;
    offsets.push_back(numel);
    numel += aligned(p.numel());
  }
  return std::unique_ptr<FlatSlab>(new FlatSlab(params, std::move(offsets), numel));
}

FlatSlab::FlatSlab(const NamedTensors& params, std::vector<int64_t> offsets, int64_t numel)
    : offsets_(std::move(offsets)), numel_(numel) {
  Device device = params.front().second.device();
  params_ = Tensor::zeros(Shape{numel_}, device);
  grads_ = Tensor::zeros(Shape{numel_}, device);
  for (const auto& [name, p] : params) tensors_.push_back(p);
  for (size_t i = 0; i < tensors_.size(); ++i) {
    TensorImpl& p = *tensors_[i].impl();
    Tensor moved = view(params_, i);
    moved.copy_from(tensors_[i]);
    p.storage = moved.impl()->storage;
    p.offset = moved.impl()->offset;
    p.grad_home = view(grads_, i).impl_ptr();
  }
}

// The numbers of `slab` from `at` on, seen as a tensor of `shape` (no copy).
Tensor FlatSlab::view_at(const Tensor& slab, int64_t at, const Shape& shape) {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = slab.impl()->storage;
  impl->offset = slab.impl()->offset + at;
  impl->shape = shape;
  return Tensor(impl);
}

Tensor FlatSlab::view(const Tensor& slab, size_t i) const {
  return view_at(slab, offsets_[i], tensors_[i].shape());
}

Tensor FlatSlab::range(const Tensor& slab, int64_t begin, int64_t end) {
  return view_at(slab, begin, Shape{end - begin});
}

bool FlatSlab::is_view(const Tensor& t, const Tensor& slab, size_t i) const {
  return t.defined() && t.impl()->storage == slab.impl()->storage &&
         t.impl()->offset == slab.impl()->offset + offsets_[i] && t.shape() == tensors_[i].shape();
}

bool FlatSlab::intact() const {
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const TensorImpl& p = *tensors_[i].impl();
    bool home = p.grad_home && is_view(Tensor(p.grad_home), grads_, i);
    if (!is_view(tensors_[i], params_, i) || !home || (p.grad && p.grad != p.grad_home)) return false;
  }
  return true;
}

void FlatSlab::zero_grads() const {
  grads_.fill_(0.f);
  for (const Tensor& p : tensors_) p.impl()->grad.reset();
}

Tensor FlatSlab::new_slab() const { return Tensor::zeros(Shape{numel_}, params_.device()); }

}  // namespace tf
